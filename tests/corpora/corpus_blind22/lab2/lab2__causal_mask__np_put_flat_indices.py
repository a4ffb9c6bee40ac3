# 3장 실습 2 — "나는 사과를 먹었다"에 마스크를 씌운 멀티헤드 어텐션 (.py 판)
#
# "# %%" 줄이 셀의 경계입니다. VS Code, PyCharm, Spyder에서는 셀 단위로 하나씩 실행할 수 있습니다.
# 노트북 masked_attention_lab.ipynb는 이 파일을 바탕으로 만들어집니다 (build_notebook.py).
# 채점기는 이 파일을 모듈로 불러오므로 `if __name__ == "__main__":` 블록은 채점 중에는 실행되지 않습니다.
# 나눠 받은 폴더(README.md, tests/, lab_check/ 가 함께 있는 폴더)에서 실행합니다.
#   검사:  python -m lab_check masked_attention_lab.py   (공개 테스트로 단계마다 무엇이 왜 틀렸는지 알려 줍니다)
#   실행:  python masked_attention_lab.py   (단계마다 같은 검사를 하고 예시 값을 찍습니다. 설치할 것은 README.md에 있습니다)
#          아직 완성하지 않은 단계의 예시는 그렇다고만 알리고 건너뛰므로, 파일은 늘 끝까지 실행됩니다.

# %% [markdown]
# # 3장 실습 2 — "나는 사과를 먹었다"에 마스크를 씌운 멀티헤드 어텐션
#
# 실습 1에서는 세 낱말이 서로를 모두 볼 수 있었습니다. 문장을 앞에서부터 한 낱말씩 만들어 가는
# 디코더에서는 아직 나오지 않은 뒤의 낱말을 볼 수 없어야 합니다. "사과를"을 만드는 순간에는
# "먹었다"가 아직 없기 때문입니다. 이번 실습에서는 뒤의 낱말을 가리는 **마스크**를 씌우고,
# 어텐션을 한 번이 아니라 폭이 좁은 **헤드** 여러 개로 나누어 따로 계산한 뒤 다시 합칩니다.
#
# | 단계 | 하는 일 | 여러분이 완성할 함수 |
# | --- | --- | --- |
# | 1 | 실습 1과 같은 `X`, `W_Q`, `W_K`, `W_V`에 `W_O` 더하기 | (준비되어 있음) |
# | 2 | Q, K, V를 헤드 2개로 나누기 | `split_heads` |
# | 3 | 앞의 낱말만 보게 하는 마스크 만들기 | `causal_mask` |
# | 4 | 가린 칸을 빼고 행별 비율 구하기 | `masked_softmax` |
# | 5 | 헤드의 결과를 다시 하나로 합치기 | `merge_heads` |
# | 6 | 모두를 잇고 `W_O`를 곱하기 | `multi_head_attention` |
#
# **진행 방법**
# - 맨 먼저 바로 아래의 채점 준비 셀을 실행합니다. 검사 코드는 노트북과 함께 받은 `lab_check/` 폴더에
#   있습니다. Colab에서는 이 셀이 함께 받은 `lab_check-masked_attention.zip`을 올리라고 하고, otter-grader를
#   설치하느라 처음 한 번은 1~2분 걸릴 수 있습니다.
# - 각 함수의 `raise NotImplementedError` 줄을 지우고 그 자리에 계산을 씁니다. 함수 이름과 인자는 그대로 둡니다.
# - 함수 설명(docstring)에 인자의 모양과 돌려줘야 할 값이 적혀 있습니다.
# - 함수 바로 다음의 `grader.check(...)` 셀은 방금 쓴 함수 하나만 검사합니다. 그 뒤의 셀들은
#   여러분의 함수로 표를 찍어 보는 곳입니다. 찍힌 숫자를 "나와야 할 값"과 맞춰 보십시오.
#   아직 완성하지 않은 함수의 예시 셀은 표 대신 그렇다는 문장 한 줄만 보여 주고 넘어가므로,
#   "모두 실행(Run All)"을 해도 노트북 끝까지 실행됩니다.
# - 검사 셀은 단계마다 무엇이 왜 틀렸는지 한국어로 설명해 줍니다. 나눠 받은 폴더가 통째로 있다면
#   터미널에서 `python -m lab_check 파일이름`으로 모든 단계를 한 번에 검사할 수도 있습니다.

# %%
if __name__ == "__main__":
    try:
        from lab_check.kit.ready import display, prepare_grader
    except ImportError:
        raise SystemExit("lab_check/ 폴더가 이 파일과 같은 폴더에 있어야 검사할 수 있습니다. 나눠 받은 폴더에서 실행하십시오.")
    grader = prepare_grader("masked_attention")

# %% [markdown]
# ## 1단계. 실습 1의 낱말 벡터와 변환 행렬, 그리고 W_O
#
# 낱말 벡터 `X`(낱말 3개 × 특징 4개)와 `W_Q`, `W_K`, `W_V`는 실습 1과 같습니다. 난수 씨앗 0에서
# 같은 방법으로 네 번째 행렬 `W_O`를 하나 더 뽑습니다. `W_O`는 헤드들의 결과를 합친 뒤 마지막에
# 곱하는 출력 변환 행렬입니다. 뽑는 차례가 **W_Q → W_K → W_V → W_O**여야 하니 셀을 그대로 실행하십시오.

# %%
import numpy as np
import pandas as pd

# 배열을 찍을 때 소수 2자리로 줄이고 과학적 표기(1e-01 꼴)는 끈다
np.set_printoptions(precision=2, suppress=True)

words = ["나는", "사과를", "먹었다"]
X = np.array([[1, 0, 1, 0],
              [0, 2, 0, 1],
              [1, 1, 0, 2]], dtype=float)

np.random.seed(0)
W_Q = np.round(np.random.randn(4, 4) * 0.5, 1)
W_K = np.round(np.random.randn(4, 4) * 0.5, 1)
W_V = np.round(np.random.randn(4, 4) * 0.5, 1)
W_O = np.round(np.random.randn(4, 4) * 0.5, 1)

n_heads = 2

# %%
if __name__ == "__main__":
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V
    print("Q =")
    print(Q)
    print("W_O =")
    print(W_O)

# %% [markdown]
# 나와야 할 값: `Q`의 첫 행 `0.8 0.4 0.6 1.8`(실습 1과 같음), `W_O`의 첫 행 `-0.8 -0.1 -0.4 0.2`.
#
# ## 2단계. Q, K, V를 헤드로 나누기
#
# 폭 `d_model = 4`짜리 벡터를 헤드 2개가 나눠 가지면 헤드 하나의 폭은 `d_head = 4 // 2 = 2`입니다.
# 첫 번째 헤드는 첫 두 열, 두 번째 헤드는 나머지 두 열을 받습니다. 헤드마다 `(n, d_head)` 표가 하나씩
# 생기므로 모두 쌓으면 `(n_heads, n, d_head)` 배열이 됩니다.
#
# 조심할 점: `M.reshape(n_heads, n, d_head)`처럼 한 번에 모양만 바꾸면 행이 차례로 잘려 한 헤드에
# 여러 낱말이 섞입니다. 먼저 `(n, n_heads, d_head)`로 열을 헤드별로 묶은 뒤 축의 순서를 바꾸십시오.

# %%
def split_heads(M, n_heads):
    """(n, d_model) 표의 열을 헤드 n_heads개로 나눈다.

    입력:
        M       -- (n, d_model) 배열 (Q, K, V 가운데 하나). d_model은 n_heads의 배수이다.
        n_heads -- 헤드 수 (정수)
    돌려줄 값:
        (n_heads, n, d_head) 배열. d_head = d_model // n_heads.
        인덱스 h의 헤드는 M[:, h*d_head:(h+1)*d_head]이다. 곧 첫 번째 헤드는 M의 첫 d_head개 열,
        두 번째 헤드는 그다음 d_head개 열을 받는다.
    """
    n, d_model = M.shape
    d_head = d_model // n_heads
    return M.reshape(n, n_heads, d_head).transpose(1, 0, 2)


# %%
if __name__ == "__main__":
    print(grader.check("split_heads"))
    try:
        Q_heads = split_heads(Q, n_heads)
        K_heads = split_heads(K, n_heads)
        V_heads = split_heads(V, n_heads)
        print("모양:", Q_heads.shape)
        print("첫 번째 헤드의 Q =")
        print(Q_heads[0])
        print("두 번째 헤드의 Q =")
        print(Q_heads[1])
    except (NotImplementedError, NameError) as error:
        display(error)

# %% [markdown]
# 나와야 할 값: `모양: (2, 3, 2)`. 첫 번째 헤드의 Q는 `Q`의 첫 두 열 `[[0.8 0.4] [2.2 -0.9] [2.6 -0.1]]`,
# 두 번째 헤드의 Q는 나머지 두 열 `[[0.6 1.8] [1.2 0.] [1.4 1.4]]`입니다.
#
# ## 3단계. 앞의 낱말만 보게 하는 마스크 만들기
#
# 낱말 i는 자기 자신과 그 앞의 낱말(j ≤ i)만 볼 수 있습니다. 볼 수 있는 칸을 `True`, 가릴 칸을
# `False`로 적은 `(n, n)` 표가 마스크입니다. 행이 보는 쪽 낱말, 열이 보이는 쪽 낱말이므로
# 대각선과 그 아래가 `True`인 아래삼각 표가 됩니다. `np.tril`이나 `np.arange`의 비교로 만들 수 있습니다.

# %%
def causal_mask(n):
    """낱말 n개짜리 문장의 인과 마스크를 만든다.

    입력:
        n -- 낱말 수 (정수)
    돌려줄 값:
        (n, n) 불리언(bool) 배열. (i, j) 칸은 낱말 i가 낱말 j를 볼 수 있으면(j <= i) True,
        뒤의 낱말이면(j > i) False이다. 대각선(자기 자신)은 True이다.
    """
    mask = np.ones((n, n), dtype=bool)
    np.put(mask, np.triu_indices(n, k=1), False)
    return mask


# %%
if __name__ == "__main__":
    print(grader.check("causal_mask"))
    try:
        mask = causal_mask(len(words))
        print(pd.DataFrame(mask, index=words, columns=words))
    except (NotImplementedError, NameError) as error:
        display(error)

# %% [markdown]
# 나와야 할 값: "나는" 행 `True False False`, "사과를" 행 `True True False`, "먹었다" 행 `True True True`.
# "사과를"은 "나는"과 자기 자신만 보고, 아직 나오지 않은 "먹었다"는 보지 않습니다.
#
# ## 4단계. 가린 칸을 빼고 행별 비율 구하기
#
# 헤드마다 점수표 `Q_h @ K_h.T`를 만들고 `√d_head`로 나눕니다(여기서는 √2). 그다음 마스크가 `False`인
# 칸의 점수를 `-np.inf`로 바꾸고 softmax를 계산합니다. `exp(-inf) = 0`이라 가린 칸은 비율 0을 받고,
# 남은 칸끼리 더해서 1이 됩니다.
#
# 조심할 점:
# - 가린 칸을 0으로 채우면 안 됩니다. `exp(0) = 1`이라 가린 낱말도 비율을 받습니다.
# - softmax를 먼저 하고 나서 가린 칸을 지우면 남은 칸의 합이 1이 되지 않습니다. 마스크가 먼저입니다.
# - 점수는 `(n, n)` 표 하나일 수도, 헤드마다 쌓은 `(n_heads, n, n)`일 수도 있습니다. 어느 쪽이든
#   마지막 축(행)을 따라 계산하면 `(n, n)` 마스크가 헤드마다 똑같이 적용됩니다.
# - 실습 1처럼 행의 최댓값을 빼서 큰 점수에서도 `inf`나 `nan`이 생기지 않게 하십시오.
# - `np.where(mask, scores, -np.inf)`처럼 쓰면 마스크가 `True/False`든 `1/0`이든 똑같이 동작합니다.

# %%
def masked_softmax(scores, mask):
    """마스크가 False인 칸을 빼고 마지막 축(행)마다 softmax를 계산한다.

    입력:
        scores -- (n, n) 또는 (n_heads, n, n) 점수 배열 (이미 √d_head로 나눈 값)
        mask   -- (n, n) 불리언 배열. True인 칸만 볼 수 있다 (헤드마다 같은 마스크).
                  True/False 대신 1/0으로 된 정수 배열이어도 똑같이 동작해야 한다.
    돌려줄 값:
        scores와 모양이 같은 배열. mask가 False인 칸은 점수가 얼마든 0이고, 행마다 합이 1이다.
        mask가 False인 칸의 점수를 -inf로 바꾼 뒤, 행의 최댓값을 빼고 exp를 해 그 행의 합으로 나눈다.
        입력 배열은 바꾸지 않는다.
    """
    masked = np.where(mask, scores, -np.inf)
    shifted = masked - masked.max(axis=-1, keepdims=True)
    e = np.exp(shifted)
    return e / e.sum(axis=-1, keepdims=True)


# %%
if __name__ == "__main__":
    print(grader.check("masked_softmax"))
    try:
        print("작은 예:", masked_softmax(np.array([[1.0, 2.0, 3.0]]), np.array([[True, True, False]])))
        print("큰 값:", masked_softmax(np.array([[1000.0, 1000.0]]), np.array([[True, True]])))
    except (NotImplementedError, NameError) as error:
        display(error)

# %% [markdown]
# 나와야 할 값: `작은 예: [[0.27 0.73 0.  ]]`, `큰 값: [[0.5 0.5]]`. `nan`이 나온다면 최댓값을 빼지 않은 것입니다.
#
# 이제 헤드마다 점수표를 만들어 적용합니다. d_head는 숫자로 적지 말고 헤드 배열의 마지막 축 길이에서 읽습니다.

# %%
if __name__ == "__main__":
    try:
        d_head = Q_heads.shape[-1]
        scaled = Q_heads @ K_heads.transpose(0, 2, 1) / np.sqrt(d_head)
        weights = masked_softmax(scaled, mask)
        for h in range(n_heads):
            print(f"헤드 {h + 1}의 점수 (√{d_head}로 나눈 값)")
            print(pd.DataFrame(scaled[h], index=words, columns=words).round(2))
            print(f"헤드 {h + 1}의 가중치")
            print(pd.DataFrame(weights[h], index=words, columns=words).round(3))
        print("행마다 더한 값:", np.round(weights.sum(axis=-1), 3))
    except (NotImplementedError, NameError) as error:
        display(error)

# %% [markdown]
# 나와야 할 값:
# - 헤드 1의 점수: "나는" 행 `0.79 -0.65 1.02`, "사과를" 행 `3.31 -3.63 0.54`, "먹었다" 행 `3.37 -3.40 1.73`
# - 헤드 1의 가중치: `1.000 0.000 0.000`, `0.999 0.001 0.000`, `0.837 0.001 0.162`
# - 헤드 2의 점수: "나는" 행 `-0.55 -0.38 -0.17`, "사과를" 행 `0.17 0.76 0.68`, "먹었다" 행 `-0.30 0.30 0.40`
# - 헤드 2의 가중치: `1.000 0.000 0.000`, `0.356 0.644 0.000`, `0.208 0.376 0.416`
# - 행마다 더한 값은 모두 `1`
#
# 점수표에는 대각선 위 칸에도 값이 있지만 가중치표에서는 그 칸이 모두 0입니다. "나는"은 자기 자신만
# 볼 수 있으니 두 헤드 모두 첫 행이 `1 0 0`입니다. 헤드 2의 "사과를" 행을 직접 따라가 보면 다음과 같습니다.
# - 보이는 점수: 0.17, 0.76 (세 번째 칸 0.68은 "먹었다"라서 가림)
# - 각각의 e 거듭제곱: 약 1.19, 2.15 (더하면 약 3.33)
# - 3.33으로 나눈 비율: 약 0.356, 0.644, 그리고 가린 칸은 0
#
# 두 헤드는 같은 낱말을 보고도 비율을 다르게 나눕니다. 헤드 1은 "나는"에 거의 모든 비율을 주고,
# 헤드 2는 여러 낱말에 고루 나눕니다. 헤드를 여럿 두는 까닭이 이것입니다. 다만 변환 행렬이 학습 전의
# 무작위 값이라 어느 쪽으로 몰리는지에 언어적인 의미는 없습니다.

# %% [markdown]
# ## 5단계. 헤드의 결과를 다시 하나로 합치기
#
# 헤드마다 `weights[h] @ V_heads[h]`로 `(n, d_head)` 새 벡터를 얻습니다. 쌓으면 `(n_heads, n, d_head)`입니다.
# 이것을 낱말마다 헤드 1의 열, 헤드 2의 열 차례로 이어 붙여 `(n, n_heads * d_head)` 표로 되돌립니다.
# `split_heads`를 거꾸로 하는 일이므로 `merge_heads(split_heads(M, n_heads))`는 `M`과 같아야 합니다.

# %%
def merge_heads(H):
    """헤드별 결과를 이어 붙여 낱말마다 한 행으로 만든다 (split_heads의 역연산).

    입력:
        H -- (n_heads, n, d_head) 배열
    돌려줄 값:
        (n, n_heads * d_head) 배열. 낱말 i의 행은 H[0, i], H[1, i], …를 차례로 이어 붙인 것이다.
    """
    h, n, d_head = H.shape
    return H.transpose(1, 0, 2).reshape(n, h * d_head)


# %%
if __name__ == "__main__":
    print(grader.check("merge_heads"))
    try:
        print("되돌리면 Q와 같은가:", np.allclose(merge_heads(Q_heads), Q))
        merged = merge_heads(weights @ V_heads)
        print("merged =")
        print(merged)
        print("모양:", merged.shape)
    except (NotImplementedError, NameError) as error:
        display(error)

# %% [markdown]
# 나와야 할 값: `되돌리면 Q와 같은가: True`, `merged`의 행은 `-0.9 -1.7 -1.1 1.1`, `-0.9 -1.7 -1.04 0.39`,
# `-0.82 -1.55 -1.27 0.52`, 모양은 `(3, 4)`. 첫 행은 `V`의 첫 행과 같습니다. "나는"은 자기 자신만 보기 때문입니다.
#
# ## 6단계. 한 함수로 묶고 W_O 곱하기
#
# 이제 앞의 함수들을 차례로 불러 멀티헤드 어텐션 전체를 한 번에 계산하는 함수를 씁니다.
# 1. `Q, K, V = X @ W_Q, X @ W_K, X @ W_V`
# 2. 셋을 `split_heads`로 헤드 `n_heads`개로 나누기
# 3. 헤드마다 점수 `Q_h @ K_h.T / √d_head`
# 4. `causal_mask`로 만든 마스크를 씌워 `masked_softmax`
# 5. 헤드마다 `weights @ V_h`를 구해 `merge_heads`로 합치기
# 6. 마지막에 `W_O`를 곱한 것이 `output`
#
# `d_head`, 낱말 수, 헤드 수에 페이지의 숫자를 적어 넣지 말고 입력의 모양과 `n_heads`에서 읽으십시오.
# 나누는 수는 `√d_model`(√4)이 아니라 헤드 하나의 폭 `√d_head`(√2)입니다.

# %%
def multi_head_attention(X, W_Q, W_K, W_V, W_O, n_heads):
    """split_heads, causal_mask, masked_softmax, merge_heads를 차례로 불러 마스크를 씌운 멀티헤드 어텐션을 계산한다.

    입력:
        X       -- (n, d_model) 낱말 벡터 표
        W_Q, W_K, W_V, W_O -- 각각 (d_model, d_model) 변환 행렬
        n_heads -- 헤드 수 (d_model은 n_heads의 배수)
    돌려줄 값:
        튜플 (output, weights).
        weights -- (n_heads, n, n) 헤드별 가중치: 헤드별 점수를 √d_head로 나누고
                   인과 마스크를 씌워 softmax한 것. d_head = d_model // n_heads.
        output  -- (n, d_model): 헤드별로 weights @ V_h를 구해 merge_heads로 합친 뒤 W_O를 곱한 것.
    """
    Q = X @ W_Q
    K = X @ W_K
    V = X @ W_V
    Q_h = split_heads(Q, n_heads)
    K_h = split_heads(K, n_heads)
    V_h = split_heads(V, n_heads)
    d_head = Q_h.shape[-1]
    scores = Q_h @ K_h.transpose(0, 2, 1) / np.sqrt(d_head)
    mask = causal_mask(X.shape[0])
    weights = masked_softmax(scores, mask)
    merged = merge_heads(weights @ V_h)
    output = merged @ W_O
    return output, weights


# %%
if __name__ == "__main__":
    print(grader.check("multi_head_attention"))
    try:
        output, attention_weights = multi_head_attention(X, W_Q, W_K, W_V, W_O, n_heads)
        print("단계별 결과와 같은가:", np.allclose(output, merged @ W_O), np.allclose(attention_weights, weights))
        print("output =")
        print(output)
    except (NotImplementedError, NameError) as error:
        display(error)

# %% [markdown]
# 나와야 할 값: `단계별 결과와 같은가: True True` 그리고 `output`의 행 `0.9 0.67 0.25 -1.29`,
# `1.11 0.82 0.51 -0.66`, `0.96 0.65 0.5 -0.69`.
#
# 돌아보면 실습 1의 계산에 두 가지가 더해졌습니다. softmax 전에 뒤의 낱말을 `-inf`로 가리는 일과,
# 폭을 헤드로 나눠 따로 계산한 뒤 다시 이어 붙이고 `W_O`로 섞는 일입니다. 결과의 모양은 여전히
# 입력 `X`와 같은 `(3, 4)`입니다.
