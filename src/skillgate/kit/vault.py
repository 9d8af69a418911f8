"""Credentials at rest: AES-256-GCM under a key ring, bound to their connection.

Ciphertext layout: `b"\\x01" | len(key_id) | key_id | nonce(12) | ciphertext+tag`.
The associated data is the connection's identity (`id|user_id|integration`), so
a ciphertext copied onto another row fails to decrypt. The first key of
SKILLGATE_ENCRYPTION_KEYS encrypts; every key decrypts; `reencrypt` moves old
ciphertexts to the first key.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from skillgate.errors import ConfigError

_VERSION = 1


class VaultError(Exception):
    """A ciphertext that cannot be opened with this key ring for this connection."""


def parse_key_ring(value: str) -> list[tuple[str, bytes]]:
    """`id:base64key,id2:base64key` (or bare base64 keys, numbered k1, k2...)."""
    ring: list[tuple[str, bytes]] = []
    for i, entry in enumerate(p.strip() for p in value.split(",") if p.strip()):
        key_id, sep, material = entry.partition(":")
        if not sep:
            key_id, material = f"k{i + 1}", entry
        try:
            key = base64.urlsafe_b64decode(material + "=" * (-len(material) % 4))
        except (binascii.Error, ValueError):
            raise ConfigError(f"SKILLGATE_ENCRYPTION_KEYS: key {key_id!r} is not base64") from None
        if len(key) != 32:
            raise ConfigError(f"SKILLGATE_ENCRYPTION_KEYS: key {key_id!r} must be 32 bytes")
        if not key_id or len(key_id) > 32:
            raise ConfigError("SKILLGATE_ENCRYPTION_KEYS: key ids are 1-32 characters")
        ring.append((key_id, key))
    if not ring:
        raise ConfigError("SKILLGATE_ENCRYPTION_KEYS is empty")
    return ring


@dataclass(frozen=True)
class Binding:
    """What a ciphertext is bound to: the connection's identity."""

    connection_id: str
    user_id: str
    integration: str

    def aad(self) -> bytes:
        return f"{self.connection_id}|{self.user_id}|{self.integration}".encode()


class Vault:
    def __init__(self, key_ring: str) -> None:
        ring = parse_key_ring(key_ring)
        self.current_id = ring[0][0]
        self._keys = {key_id: AESGCM(key) for key_id, key in ring}

    def __repr__(self) -> str:
        return f"Vault(current={self.current_id!r}, keys={len(self._keys)})"

    def seal(self, data: dict[str, Any], binding: Binding) -> bytes:
        key_id = self.current_id.encode()
        nonce = os.urandom(12)
        plaintext = json.dumps(data, separators=(",", ":")).encode()
        sealed = self._keys[self.current_id].encrypt(nonce, plaintext, binding.aad())
        return bytes([_VERSION, len(key_id)]) + key_id + nonce + sealed

    def key_id_of(self, blob: bytes) -> str:
        if len(blob) < 2 or blob[0] != _VERSION:
            raise VaultError("unknown ciphertext format")
        return blob[2 : 2 + blob[1]].decode()

    def open(self, blob: bytes, binding: Binding) -> dict[str, Any]:
        key_id = self.key_id_of(blob)
        aead = self._keys.get(key_id)
        if aead is None:
            raise VaultError(f"encrypted with key {key_id!r}, which is not in the key ring")
        start = 2 + blob[1]
        nonce, sealed = blob[start : start + 12], blob[start + 12 :]
        try:
            plaintext = aead.decrypt(nonce, sealed, binding.aad())
        except InvalidTag:
            raise VaultError("ciphertext does not belong to this connection") from None
        data: dict[str, Any] = json.loads(plaintext)
        return data

    def needs_rotation(self, blob: bytes) -> bool:
        return self.key_id_of(blob) != self.current_id
