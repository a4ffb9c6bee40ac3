# 테스트 실습 — 위치 인코딩과 층 정규화 (.py 판)
#
# "# %%" 줄이 셀의 경계입니다. 노트북 positional_lab.ipynb는 이 파일을 바탕으로 만들어집니다.
#   검사:  python -m lab_check positional_lab.py

# %% [markdown]
# # 테스트 실습 — 위치 인코딩과 층 정규화
#
# 네 단계: `positional_encoding`, `layer_norm`, `add_and_norm`(layer_norm을 부름),
# `encoder_input`(positional_encoding과 add_and_norm을 부름).

# %%
if __name__ == "__main__":
    import otter
    grader = otter.Notebook(tests_dir="tests")

# %%
import numpy as np

X = np.array([[0.1, 0.2, 0.3, 0.4],
              [1.0, 0.0, -1.0, 0.5],
              [0.3, 0.3, 0.9, -0.2]])


# %%
def positional_encoding(n, d):
    """(n, d) 위치 인코딩: 짝수 열은 sin, 홀수 열은 cos, 각은 pos / 10000^(2·(j // 2) / d)."""
    raise NotImplementedError


# %%
if __name__ == "__main__":
    print(grader.check("positional_encoding"))


# %%
def layer_norm(x, eps=1e-5):
    """행마다 평균 0, 분산 1로: (x - 평균) / sqrt(분산 + eps)."""
    raise NotImplementedError


# %%
if __name__ == "__main__":
    print(grader.check("layer_norm"))


# %%
def add_and_norm(x, sublayer_out):
    """잔차 연결 뒤 정규화: layer_norm(x + sublayer_out)."""
    raise NotImplementedError


# %%
if __name__ == "__main__":
    print(grader.check("add_and_norm"))


# %%
def encoder_input(X):
    """X에 위치 인코딩을 더해 정규화: add_and_norm(X, positional_encoding(n, d))."""
    raise NotImplementedError


# %%
if __name__ == "__main__":
    print(grader.check("encoder_input"))
