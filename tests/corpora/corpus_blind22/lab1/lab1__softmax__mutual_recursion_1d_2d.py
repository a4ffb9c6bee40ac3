# 3장 실습 1 — "나는 사과를 먹었다"의 self-attention을 손으로 풀기 (.py 판)
#
# "# %%" 줄이 셀의 경계입니다. VS Code, PyCharm, Spyder에서는 셀 단위로 하나씩 실행할 수 있습니다.
# 노트북 self_attention_lab.ipynb는 이 파일을 바탕으로 만들어집니다 (build_notebook.py).
# 채점기는 이 파일을 모듈로 불러오므로 `if __name__ == "__main__":` 블록은 채점 중에는 실행되지 않습니다.
# 나눠 받은 폴더(README.md, tests/, lab_check/ 가 함께 있는 폴더)에서 실행합니다.
#   검사:  python -m lab_check self_attention_lab.py   (공개 테스트로 단계마다 무엇이 왜 틀렸는지 알려 줍니다)
#   실행:  python self_attention_lab.py   (단계마다 같은 검사를 하고 예시 값을 찍습니다. 설치할 것은 README.md에 있습니다)
#          아직 완성하지 않은 단계의 예시는 그렇다고만 알리고 건너뛰므로, 파일은 늘 끝까지 실행됩니다.

# %% [markdown]
# # 3장 실습 1 — "나는 사과를 먹었다"의 self-attention을 손으로 풀기
#
# 세 낱말이 서로에게 얼마나 주의를 기울이는지를 라이브러리 없이, 행렬곱과 softmax만 써서 구해 봅니다.
# 전체 과정은 다섯 단계로 나뉩니다.
#
# | 단계 | 하는 일 | 여러분이 완성할 함수 |
# | --- | --- | --- |
# | 1 | 문장을 숫자 표 `X`로 옮기기 | (준비되어 있음) |
# | 2 | 변환 행렬 `W_Q`, `W_K`, `W_V`로 Q, K, V 얻기 | `make_qkv` |
# | 3 | 낱말 쌍마다 관련 점수 매기기 | `scores` |
# | 4 | 점수를 √d_k로 줄이고 행별 비율로 바꾸기 | `softmax` |
# | 5 | 비율대로 V를 가중 평균해 문맥 벡터 얻기 | `mix`, 모두를 잇는 `self_attention` |
# | 마무리 | 낱말마다 가장 크게 참고한 상대 찾기 | `most_attended` |
#
# **진행 방법**
# - 맨 먼저 바로 아래의 채점 준비 셀을 실행합니다. 검사 코드는 노트북과 함께 받은 `lab_check/` 폴더에
#   있습니다. Colab에서는 이 셀이 함께 받은 `lab_check-self_attention.zip`을 올리라고 하고, otter-grader를
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
    grader = prepare_grader("self_attention")

# %% [markdown]
# ## 1단계. 문장을 숫자 표 X로 옮기기
#
# 낱말 하나를 특징 4개(`d_model = 4`)짜리 벡터 한 행으로 적어, 3행 4열의 표 `X`를 만듭니다.
# 숫자는 손으로 검산하기 좋게 고른 것입니다. 학습된 모델이라면 이 자리에 임베딩과 위치 정보를 합친
# 벡터가 들어갑니다. 아래 셀은 고치지 말고 실행만 하십시오.

# %%
import numpy as np
import pandas as pd

# 배열을 찍을 때 소수 2자리로 줄이고 과학적 표기(1e-01 꼴)는 끈다
np.set_printoptions(precision=2, suppress=True)

words = ["나는", "사과를", "먹었다"]
X = np.array([[1, 0, 1, 0],
              [0, 2, 0, 1],
              [1, 1, 0, 2]], dtype=float)

# %%
if __name__ == "__main__":
    feature_names = [f"특징{i}" for i in range(X.shape[1])]
    print(pd.DataFrame(X, index=words, columns=feature_names))
    print("X의 모양:", X.shape)

# %% [markdown]
# 행마다 낱말 이름이 붙은 3×4 표와 `X의 모양: (3, 4)`가 보이면 됩니다.
#
# ## 2단계. X에서 Q, K, V 세 행렬 뽑아내기
#
# 같은 `X`라도 곱하는 변환 행렬이 다르면 쓰임새가 다른 세 행렬이 나옵니다.
# - **Q (query)**: 이 낱말이 무엇을 찾고 있는지 적은 질문
# - **K (key)**: 다른 낱말이 이 낱말을 알아볼 때 쓰는 색인
# - **V (value)**: 이 낱말을 참고한 낱말에게 넘겨줄 정보
#
# 세 변환 행렬은 난수 씨앗을 0으로 고정해 뽑은 값에 0.5를 곱하고 소수 첫째 자리까지 반올림한 것이라,
# 누가 실행해도 같은 숫자가 나옵니다. 뽑는 차례가 **W_Q → W_K → W_V**여야 하니 셀을 그대로 실행하십시오.

# %%
np.random.seed(0)
W_Q = np.round(np.random.randn(4, 4) * 0.5, 1)
W_K = np.round(np.random.randn(4, 4) * 0.5, 1)
W_V = np.round(np.random.randn(4, 4) * 0.5, 1)

# %% [markdown]
# 첫 함수입니다. 모양이 `(n, d_model)`인 `X`에 `(d_model, d_k)` 행렬을 곱하면 `(n, d_k)`가 됩니다.

# %%
def make_qkv(X, W_Q, W_K, W_V):
    """낱말 벡터 X에 변환 행렬 세 개를 곱해 Q, K, V를 만든다.

    입력:
        X   -- (n, d_model) 낱말 벡터 표 (한 행이 한 낱말)
        W_Q -- (d_model, d_k) query 변환 행렬
        W_K -- (d_model, d_k) key 변환 행렬
        W_V -- (d_model, d_v) value 변환 행렬
    돌려줄 값:
        튜플 (Q, K, V). Q는 X와 W_Q의 행렬곱 (n, d_k), K는 X와 W_K의 행렬곱 (n, d_k),
        V는 X와 W_V의 행렬곱 (n, d_v). 이 순서대로 세 개를 돌려준다.
    """
    Q = X @ W_Q
    K = X @ W_K
    V = X @ W_V
    return Q, K, V


# %%
if __name__ == "__main__":
    print(grader.check("make_qkv"))
    try:
        Q, K, V = make_qkv(X, W_Q, W_K, W_V)
        print("Q =")
        print(Q)
        print("K =")
        print(K)
        print("모양:", Q.shape, K.shape, V.shape)
    except (NotImplementedError, NameError) as error:
        display(error)

# %% [markdown]
# 나와야 할 값: `Q`의 첫 행 `0.8 0.4 0.6 1.8`, `K`의 첫 행 `1.8 -0.8 0.2 -0.5`, 세 모양 모두 `(3, 4)`.
#
# ## 3단계. 낱말 쌍마다 관련 점수 매기기
#
# 낱말 i의 Q 행과 낱말 j의 K 행을 자리끼리 곱해 모두 더하면(내적) "i가 j를 얼마나 찾는가" 점수가 됩니다.
# 세 낱말이면 점수는 3×3 = 9칸인데, 한 칸씩 반복문으로 채울 필요 없이 행렬곱 하나가 전부 계산해 줍니다.
# 여기서는 **크기를 줄이기 전의 점수**를 돌려주십시오. √d_k로 나누는 일은 4단계 몫입니다.

# %%
def scores(Q, K):
    """모든 낱말 쌍의 관련 점수표를 만든다 (√d_k로 나누기 전).

    입력:
        Q -- (n, d_k) query 행렬
        K -- (n, d_k) key 행렬
    돌려줄 값:
        (n, n) 배열. (i, j) 칸은 Q의 i번째 행과 K의 j번째 행의 내적이다.
        행은 찾는 쪽 낱말(query), 열은 찾아지는 쪽 낱말(key). 나누거나 줄이지 않은 값을 돌려준다.
    """
    return Q @ K.T


# %%
if __name__ == "__main__":
    print(grader.check("scores"))
    try:
        score_table = scores(Q, K)
        score_frame = pd.DataFrame(score_table, index=words, columns=words)
        print(score_frame.round(2))
    except (NotImplementedError, NameError) as error:
        display(error)

# %% [markdown]
# 표의 왼쪽 위 칸("나는"이 "나는"을 찾는 점수)을 곱셈 네 번과 덧셈으로 다시 구해, 표의 값과 견줘 봅니다.

# %%
if __name__ == "__main__":
    try:
        pairs = [f"({q:.1f})×({k:.1f})" for q, k in zip(Q[0], K[0])]
        by_hand = sum(q * k for q, k in zip(Q[0], K[0]))
        print("곱을 하나씩 더하면:", " + ".join(pairs), f"= {by_hand:.2f}")
        print(f"점수표의 같은 칸: {score_table[0, 0]:.2f}")
    except (NotImplementedError, NameError) as error:
        display(error)

# %% [markdown]
# 나와야 할 값: 두 줄 모두 `0.34`. 점수표 첫 행은 `0.34 -1.46 1.20`, 둘째 행은 `4.92 -4.05 1.72`.
#
# ## 4단계. 점수를 √d_k로 줄이고 행별 비율로 바꾸기
#
# 점수를 `√d_k`로 나눠(여기서는 d_k = 4이므로 2로 나눔) 값의 폭을 줄인 다음, 행마다 **더해서 1이 되는 비율**로
# 바꿉니다. 이 변환이 softmax입니다. 한 행의 값 x₁, …, xₙ 각각에 대해 eˣⁱ를 그 행 전체 eˣ의 합으로 나눕니다.
#
# 조심할 점:
# - 2-D 입력이면 **행 단위로**(마지막 축을 따라) 따로 계산합니다. 표 전체의 합으로 나누면 틀립니다.
# - `np.exp(1000)`은 `inf`로 넘칩니다. 행에서 가장 큰 값을 먼저 빼도 비율은 그대로이니 빼고 계산하십시오.

# %%
def softmax(x):
    """마지막 축(2-D라면 행)마다 값을 더해서 1이 되는 비율로 바꾼다.

    입력:
        x -- 1-D 배열 (n,) 또는 2-D 배열 (m, n). 정수 배열일 수도 있다.
    돌려줄 값:
        x와 모양이 같은 배열. 마지막 축을 따라 e의 거듭제곱을 그 행의 합으로 나눈 값이라
        행마다 합이 1이다. 그 행의 최댓값을 먼저 빼서 1000 같은 큰 값에서도, 모두 -100000
        가까이인 값에서도 inf나 nan이 생기지 않게 한다. 아주 작은 비율도 반올림하거나 0으로
        버리지 않는다.
    """
    x = np.asarray(x, dtype=float)
    if x.ndim == 2:
        return np.array([softmax(row) for row in x])
    if x.ndim == 1:
        return softmax(x[np.newaxis, :])[0]
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)

# %%
if __name__ == "__main__":
    print(grader.check("softmax"))
    try:
        print("1-D:", softmax(np.array([1.0, 2.0, 3.0])))
        print("큰 값:", softmax(np.array([1000.0, 1000.0])))
    except (NotImplementedError, NameError) as error:
        display(error)

# %% [markdown]
# 나와야 할 값: `1-D: [0.09 0.24 0.67]`, `큰 값: [0.5 0.5]`. `nan`이 나온다면 최댓값을 빼지 않은 것입니다.
#
# 이제 점수표에 적용합니다. d_k는 숫자로 적지 말고 K의 열 개수에서 읽습니다.

# %%
if __name__ == "__main__":
    try:
        scaled = score_table / np.sqrt(K.shape[1])
        weights = softmax(scaled)
        weight_frame = pd.DataFrame(weights, index=words, columns=words)
        print(weight_frame.round(3))
        print("행마다 더한 값:", np.round(weights.sum(axis=-1), 3))
    except (NotImplementedError, NameError) as error:
        display(error)

# %% [markdown]
# 나와야 할 값: "나는" 행 `0.340 0.138 0.522`, "사과를" 행 `0.824 0.009 0.166`, 행마다 더한 값은 모두 `1`.
#
# "나는" 행을 직접 따라가 보면 다음과 같습니다.
# - 2로 나눈 점수: 0.17, -0.73, 0.60
# - 각각의 e 거듭제곱: 약 1.19, 0.48, 1.82 (모두 더하면 약 3.49)
# - 3.49로 나눈 비율: 약 0.34, 0.14, 0.52
#
# 변환 행렬이 아직 학습 전의 무작위 값이라, 어느 낱말이 어느 낱말에 몰리는지는 우연일 뿐 언어적인 의미는 없습니다.

# %% [markdown]
# ## 5단계. 비율대로 V를 가중 평균해 문맥 벡터 얻기
#
# 낱말 i의 새 벡터는 모든 낱말 j의 V 행에 비율 `weights[i, j]`를 곱해 더한 것입니다.
# 이 역시 행렬곱 하나로 끝나며, 결과는 입력 `X`와 같은 `(3, 4)` 모양입니다.

# %%
def mix(weights, V):
    """가중치표대로 V의 행들을 가중 평균해 낱말마다 새 벡터를 만든다.

    입력:
        weights -- (n, n) 가중치표 (행마다 합이 1)
        V       -- (n, d_v) value 행렬
    돌려줄 값:
        (n, d_v) 배열. i번째 행은 모든 j에 대해 weights[i, j]와 V의 j번째 행을 곱해 더한 값.
    """
    return weights @ V


# %%
if __name__ == "__main__":
    print(grader.check("mix"))
    try:
        output = mix(weights, V)
        print("output =")
        print(output)
        print("모양:", output.shape)
    except (NotImplementedError, NameError) as error:
        display(error)

# %% [markdown]
# "사과를"의 새 벡터(둘째 행)를 반복문으로 직접 섞어 보고 `output`의 같은 행과 견줘 봅니다.

# %%
if __name__ == "__main__":
    try:
        apple = words.index("사과를")
        blended = np.zeros(V.shape[1])
        for j in range(len(words)):
            blended += weights[apple, j] * V[j]
        print("직접 섞은 값:", blended.round(2))
        print("output의 둘째 행:", output[apple].round(2))
    except (NotImplementedError, NameError) as error:
        display(error)

# %% [markdown]
# 나와야 할 값: 두 줄 모두 `[-0.8  -1.53 -1.18  1.02]`.
#
# ### 한 함수로 묶기
#
# 이제 앞의 함수들을 차례로 불러 softmax(QKᵀ / √d_k) V 전체를 한 번에 계산하는 함수를 씁니다.
# d_k에 4를 적어 넣지 말고 `K`의 모양에서 읽으십시오. 낱말 수나 벡터 길이가 달라져도 맞아야 합니다.

# %%
def self_attention(X, W_Q, W_K, W_V):
    """make_qkv, scores, softmax, mix를 차례로 불러 self-attention을 계산한다.

    입력:
        X   -- (n, d_model) 낱말 벡터 표
        W_Q -- (d_model, d_k), W_K -- (d_model, d_k), W_V -- (d_model, d_v) 변환 행렬
    돌려줄 값:
        튜플 (output, weights).
        weights -- (n, n) 가중치표: 점수표를 √d_k로 나눈 뒤 softmax를 적용한 것. d_k = K.shape[1].
        output  -- (n, d_v) 새 벡터: weights대로 V를 가중 평균한 것.
    """
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = K.shape[1]
    weights = softmax(scores(Q, K) / np.sqrt(d_k))
    output = mix(weights, V)
    return output, weights


# %%
if __name__ == "__main__":
    print(grader.check("self_attention"))
    try:
        attended, attention_weights = self_attention(X, W_Q, W_K, W_V)
        print("단계별 결과와 같은가:", np.allclose(attended, output), np.allclose(attention_weights, weights))
        print(attended.round(2))
    except (NotImplementedError, NameError) as error:
        display(error)

# %% [markdown]
# 나와야 할 값: `단계별 결과와 같은가: True True` 그리고 5단계 `output`과 같은 표.
#
# ## 마무리. 낱말마다 가장 크게 참고한 상대 찾기
#
# 가중치표를 행과 열에 낱말 이름을 단 pandas 표로 바꾸면, `idxmax(axis=1)`이 행마다 가장 큰 칸의
# **열 이름**을 한꺼번에 알려 줍니다. 그 결과를 `{낱말: 낱말}` 사전으로 돌려주는 함수를 씁니다.

# %%
def most_attended(weights, words):
    """낱말마다 가중치가 가장 큰 낱말, 곧 가장 크게 참고한 낱말을 찾는다.

    입력:
        weights -- (n, n) 가중치표. i번째 행은 낱말 i가 각 낱말을 참고하는 비율
        words   -- 낱말 n개의 리스트 (행과 열의 이름)
    돌려줄 값:
        dict {낱말: 그 낱말의 행에서 가중치가 가장 큰 열의 낱말}. 행·열 이름이 words인
        pandas DataFrame을 만들어 행마다 idxmax를 쓴다. 번호가 아니라 낱말을 돌려준다.
        한 행에 가장 큰 값이 여럿이면 idxmax처럼 그 가운데 앞의 낱말을 고른다.
    """
    frame = pd.DataFrame(weights, index=words, columns=words)
    return frame.idxmax(axis=1).to_dict()


# %%
if __name__ == "__main__":
    print(grader.check("most_attended"))
    try:
        print("가장 크게 참고한 상대:", most_attended(attention_weights, words))
    except (NotImplementedError, NameError) as error:
        display(error)

# %% [markdown]
# 나와야 할 값: `{'나는': '먹었다', '사과를': '나는', '먹었다': '나는'}`
#
# 돌아보면 필요한 연산은 QKᵀ와 비율 × V의 두 행렬곱, 그리고 그 사이의 softmax뿐입니다.
# 결과의 모양은 입력 `X`와 같고, 각 행에는 다른 낱말들의 정보가 비율만큼 섞여 들어 있습니다.
