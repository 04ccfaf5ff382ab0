"""A handout's variant, signed by the course: Ed25519 (the `cryptography` library), verified where `check` runs.

The course's signing key is derived from the course's secret (HMAC-SHA256 of it, as the key's 32-byte
seed), so it is the same key for every handout of the course and never leaves the instructor's side.
The file holds the variant and its signature, and nothing to check them with: the course's public key
is given apart from it (a handout's assignment.toml, `[variants] key`, written by `handout`; on the
instructor's side, derived from the secret), and a file is checked against that key alone. Editing the
variant in the file (another student's operation, constant, activation or seed), or signing it again
with a key of one's own, breaks the signature, and `check` refuses it in one line. A student who
rewrites the check tool itself can make it say anything: that is why grading never reads the handout,
and draws the variant from the roster's id and the secret again.
"""
from __future__ import annotations

import hashlib
import hmac
import json

from autograder.variants.model import Variant

_KEY_DOMAIN = b"backprop-kit handout signing key v1\x00"
_MESSAGE_DOMAIN = b"backprop-kit variant.json v1\x00"


class BadSignature(ValueError):
    """The file's variant is not the one the course signed."""


def _message(variant_json: dict) -> bytes:
    return _MESSAGE_DOMAIN + json.dumps(variant_json, sort_keys=True, separators=(",", ":")).encode()


def signing_key(secret: str):
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    return Ed25519PrivateKey.from_private_bytes(hmac.new(secret.encode(), _KEY_DOMAIN, hashlib.sha256).digest())


def public_key_hex(secret: str) -> str:
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    return signing_key(secret).public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()


def signed(variant: Variant, secret: str) -> dict:
    """What variant.json holds: the variant and the course's signature of it (the key that checks it is
    given apart: a key in the file would check whatever its writer signed)."""
    data = variant.to_json()
    return {"variant": data, "signature": signing_key(secret).sign(_message(data)).hex()}


def verified(content: dict, course_key: str) -> Variant:
    """The variant of a variant.json, if the course's key (public, hex) verifies its signature; BadSignature
    otherwise. Any key the file itself names is never used."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    if not isinstance(content, dict) or not {"variant", "signature"} <= set(content):
        raise BadSignature("it is not signed")
    key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(course_key))
    try:
        key.verify(bytes.fromhex(content["signature"]), _message(content["variant"]))
    except (InvalidSignature, ValueError, TypeError) as err:
        raise BadSignature("the course's key does not verify its signature of the variant in it") from err
    return Variant.from_json(content["variant"])
