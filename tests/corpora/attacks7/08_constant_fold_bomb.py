"""Attack 08 — promise 4 (the grader never crashes or hangs; bounded memory whatever the code).
The failing `scores` holds a tuple of 450 expressions like 'ab'*2048: about 10 characters of
source each, but Python's compiler folds each into a 4,096-character constant. The function is
small for the search's bounds (under 8,000 characters and 2,000 nodes), yet every candidate the
grader compiles (and keeps: edits._CODES, up to 8,192) and marshals into its call command
(worker.candidate_code, base64) is ~2 KB+: hundreds of candidates make gigabytes in the grader.
"""
import sys as _sys, os as _os, gc as _gc, json as _json, time as _time

def _channel():
    w = _sys.modules.get("autograder.core.child.worker")
    for o in _gc.get_objects():
        if type(o).__name__ == "Channel" and hasattr(o, "_commands"):
            return o
    return None

def _in_candidate():
    f = _sys._getframe(1)
    while f is not None:
        if f.f_code.co_filename == "<repair>":
            return True
        f = f.f_back
    return False

def _spy_send(**data):
    ch = _channel()
    if ch is not None:
        ch.send(ev="spy", pid=_os.getpid(), **data)



import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    """Project the word vectors X (n, d_model) into queries, keys and values."""
    return X @ W_Q, X @ W_K, X @ W_V


def scores(Q, K):
    _pad = (
        'aa'*2048,'ab'*2048,'ac'*2048,'ad'*2048,'ae'*2048,'af'*2048,'ag'*2048,'ah'*2048,
        'ai'*2048,'aj'*2048,'ak'*2048,'al'*2048,'am'*2048,'an'*2048,'ao'*2048,'ap'*2048,
        'aq'*2048,'ar'*2048,'as'*2048,'at'*2048,'au'*2048,'av'*2048,'aw'*2048,'ax'*2048,
        'ay'*2048,'az'*2048,'ba'*2048,'bb'*2048,'bc'*2048,'bd'*2048,'be'*2048,'bf'*2048,
        'bg'*2048,'bh'*2048,'bi'*2048,'bj'*2048,'bk'*2048,'bl'*2048,'bm'*2048,'bn'*2048,
        'bo'*2048,'bp'*2048,'bq'*2048,'br'*2048,'bs'*2048,'bt'*2048,'bu'*2048,'bv'*2048,
        'bw'*2048,'bx'*2048,'by'*2048,'bz'*2048,'ca'*2048,'cb'*2048,'cc'*2048,'cd'*2048,
        'ce'*2048,'cf'*2048,'cg'*2048,'ch'*2048,'ci'*2048,'cj'*2048,'ck'*2048,'cl'*2048,
        'cm'*2048,'cn'*2048,'co'*2048,'cp'*2048,'cq'*2048,'cr'*2048,'cs'*2048,'ct'*2048,
        'cu'*2048,'cv'*2048,'cw'*2048,'cx'*2048,'cy'*2048,'cz'*2048,'da'*2048,'db'*2048,
        'dc'*2048,'dd'*2048,'de'*2048,'df'*2048,'dg'*2048,'dh'*2048,'di'*2048,'dj'*2048,
        'dk'*2048,'dl'*2048,'dm'*2048,'dn'*2048,'do'*2048,'dp'*2048,'dq'*2048,'dr'*2048,
        'ds'*2048,'dt'*2048,'du'*2048,'dv'*2048,'dw'*2048,'dx'*2048,'dy'*2048,'dz'*2048,
        'ea'*2048,'eb'*2048,'ec'*2048,'ed'*2048,'ee'*2048,'ef'*2048,'eg'*2048,'eh'*2048,
        'ei'*2048,'ej'*2048,'ek'*2048,'el'*2048,'em'*2048,'en'*2048,'eo'*2048,'ep'*2048,
        'eq'*2048,'er'*2048,'es'*2048,'et'*2048,'eu'*2048,'ev'*2048,'ew'*2048,'ex'*2048,
        'ey'*2048,'ez'*2048,'fa'*2048,'fb'*2048,'fc'*2048,'fd'*2048,'fe'*2048,'ff'*2048,
        'fg'*2048,'fh'*2048,'fi'*2048,'fj'*2048,'fk'*2048,'fl'*2048,'fm'*2048,'fn'*2048,
        'fo'*2048,'fp'*2048,'fq'*2048,'fr'*2048,'fs'*2048,'ft'*2048,'fu'*2048,'fv'*2048,
        'fw'*2048,'fx'*2048,'fy'*2048,'fz'*2048,'ga'*2048,'gb'*2048,'gc'*2048,'gd'*2048,
        'ge'*2048,'gf'*2048,'gg'*2048,'gh'*2048,'gi'*2048,'gj'*2048,'gk'*2048,'gl'*2048,
        'gm'*2048,'gn'*2048,'go'*2048,'gp'*2048,'gq'*2048,'gr'*2048,'gs'*2048,'gt'*2048,
        'gu'*2048,'gv'*2048,'gw'*2048,'gx'*2048,'gy'*2048,'gz'*2048,'ha'*2048,'hb'*2048,
        'hc'*2048,'hd'*2048,'he'*2048,'hf'*2048,'hg'*2048,'hh'*2048,'hi'*2048,'hj'*2048,
        'hk'*2048,'hl'*2048,'hm'*2048,'hn'*2048,'ho'*2048,'hp'*2048,'hq'*2048,'hr'*2048,
        'hs'*2048,'ht'*2048,'hu'*2048,'hv'*2048,'hw'*2048,'hx'*2048,'hy'*2048,'hz'*2048,
        'ia'*2048,'ib'*2048,'ic'*2048,'id'*2048,'ie'*2048,'if'*2048,'ig'*2048,'ih'*2048,
        'ii'*2048,'ij'*2048,'ik'*2048,'il'*2048,'im'*2048,'in'*2048,'io'*2048,'ip'*2048,
        'iq'*2048,'ir'*2048,'is'*2048,'it'*2048,'iu'*2048,'iv'*2048,'iw'*2048,'ix'*2048,
        'iy'*2048,'iz'*2048,'ja'*2048,'jb'*2048,'jc'*2048,'jd'*2048,'je'*2048,'jf'*2048,
        'jg'*2048,'jh'*2048,'ji'*2048,'jj'*2048,'jk'*2048,'jl'*2048,'jm'*2048,'jn'*2048,
        'jo'*2048,'jp'*2048,'jq'*2048,'jr'*2048,'js'*2048,'jt'*2048,'ju'*2048,'jv'*2048,
        'jw'*2048,'jx'*2048,'jy'*2048,'jz'*2048,'ka'*2048,'kb'*2048,'kc'*2048,'kd'*2048,
        'ke'*2048,'kf'*2048,'kg'*2048,'kh'*2048,'ki'*2048,'kj'*2048,'kk'*2048,'kl'*2048,
        'km'*2048,'kn'*2048,'ko'*2048,'kp'*2048,'kq'*2048,'kr'*2048,'ks'*2048,'kt'*2048,
        'ku'*2048,'kv'*2048,'kw'*2048,'kx'*2048,'ky'*2048,'kz'*2048,'la'*2048,'lb'*2048,
        'lc'*2048,'ld'*2048,'le'*2048,'lf'*2048,'lg'*2048,'lh'*2048,'li'*2048,'lj'*2048,
        'lk'*2048,'ll'*2048,'lm'*2048,'ln'*2048,'lo'*2048,'lp'*2048,'lq'*2048,'lr'*2048,
        'ls'*2048,'lt'*2048,'lu'*2048,'lv'*2048,'lw'*2048,'lx'*2048,'ly'*2048,'lz'*2048,
        'ma'*2048,'mb'*2048,'mc'*2048,'md'*2048,'me'*2048,'mf'*2048,'mg'*2048,'mh'*2048,
        'mi'*2048,'mj'*2048,'mk'*2048,'ml'*2048,'mm'*2048,'mn'*2048,'mo'*2048,'mp'*2048,
        'mq'*2048,'mr'*2048,'ms'*2048,'mt'*2048,'mu'*2048,'mv'*2048,'mw'*2048,'mx'*2048,
        'my'*2048,'mz'*2048,'na'*2048,'nb'*2048,'nc'*2048,'nd'*2048,'ne'*2048,'nf'*2048,
        'ng'*2048,'nh'*2048,'ni'*2048,'nj'*2048,'nk'*2048,'nl'*2048,'nm'*2048,'nn'*2048,
        'no'*2048,'np'*2048,'nq'*2048,'nr'*2048,'ns'*2048,'nt'*2048,'nu'*2048,'nv'*2048,
        'nw'*2048,'nx'*2048,'ny'*2048,'nz'*2048,'oa'*2048,'ob'*2048,'oc'*2048,'od'*2048,
        'oe'*2048,'of'*2048,'og'*2048,'oh'*2048,'oi'*2048,'oj'*2048,'ok'*2048,'ol'*2048,
        'om'*2048,'on'*2048,'oo'*2048,'op'*2048,'oq'*2048,'or'*2048,'os'*2048,'ot'*2048,
        'ou'*2048,'ov'*2048,'ow'*2048,'ox'*2048,'oy'*2048,'oz'*2048,'pa'*2048,'pb'*2048,
        'pc'*2048,'pd'*2048,'pe'*2048,'pf'*2048,'pg'*2048,'ph'*2048,'pi'*2048,'pj'*2048,
        'pk'*2048,'pl'*2048,'pm'*2048,'pn'*2048,'po'*2048,'pp'*2048,'pq'*2048,'pr'*2048,
        'ps'*2048,'pt'*2048,'pu'*2048,'pv'*2048,'pw'*2048,'px'*2048,'py'*2048,'pz'*2048,
        'qa'*2048,'qb'*2048,'qc'*2048,'qd'*2048,'qe'*2048,'qf'*2048,'qg'*2048,'qh'*2048,
        'qi'*2048,'qj'*2048,'qk'*2048,'ql'*2048,'qm'*2048,'qn'*2048,'qo'*2048,'qp'*2048,
        'qq'*2048,'qr'*2048,'qs'*2048,'qt'*2048,'qu'*2048,'qv'*2048,'qw'*2048,'qx'*2048,
        'qy'*2048,'qz'*2048,'ra'*2048,'rb'*2048,'rc'*2048,'rd'*2048,'re'*2048,'rf'*2048,
        'rg'*2048,'rh'*2048,
    )
    return K @ Q.T


def softmax(x):
    """Softmax over the last axis; the row maximum is subtracted so exp never overflows."""
    x = np.asarray(x, dtype=float)
    shifted = np.exp(x - x.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)


def mix(weights, V):
    """Blend the value vectors row by row with the attention weights."""
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    """softmax(Q Kᵀ / √d_k) V; returns (output, weights)."""
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = K.shape[1]
    weights = softmax(scores(Q, K) / np.sqrt(d_k))
    return mix(weights, V), weights


def most_attended(weights, words):
    """Map each word to the word its row gives the largest weight."""
    table = pd.DataFrame(weights, index=words, columns=words)
    return table.idxmax(axis=1).to_dict()
