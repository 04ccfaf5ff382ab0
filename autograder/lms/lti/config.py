"""PLATFORM.toml: what an LMS admin fills once to let the kit post grades as an LTI 1.3 tool.

    [platform]   issuer, client_id, deployment_id, token_url (OAuth2 client credentials), token_audience
    [tool]       private_key (a PEM file, relative to PLATFORM.toml), key_id (the kid the platform knows)
    [course]     lineitems (AGS line items URL), memberships (NRPS URL), resource_link_id (optional)
    [assignment] tag (how the kit finds its line item again), label, score_maximum (for a new one)
    [students]   member: the NRPS field that identifies a student ("lis_person_sourcedid", "email",
                 "user_id", or "custom:NAME" for a custom launch parameter); kit: what of the kit's
                 student it equals ("lms_id": the id in the download's file names, "student": the
                 kit's id as is); roster: an optional CSV of student,value pairs standing between them
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from autograder.config import tomllib
from autograder.lms.graded import LmsError

KIT_KEYS = ("lms_id", "student")
REQUIRED = {"platform": ("issuer", "client_id", "deployment_id", "token_url"),
            "tool": ("private_key",), "course": ("lineitems", "memberships"), "assignment": ("tag",),
            "students": ("member",)}


@dataclass(frozen=True)
class Platform:
    path: Path
    issuer: str
    client_id: str
    deployment_id: str
    token_url: str
    token_audience: str | None
    private_key: str          # PEM text
    key_id: str | None        # None: pylti1p3's (the key's JWK thumbprint)
    lineitems: str
    memberships: str
    resource_link_id: str | None
    tag: str
    label: str
    score_maximum: float | None
    member: str
    kit: str
    roster: Path | None


def load_platform(path: Path) -> Platform:
    """PLATFORM.toml read and checked, the key read and parsed: LmsError (one line) for anything missing."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise LmsError(f"{path}: can't read it ({err.strerror or err})") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
        raise LmsError(f"{path}: not a valid TOML file ({err})") from None
    for table, keys in REQUIRED.items():
        section = data.get(table)
        if not isinstance(section, dict):
            raise LmsError(f"{path}: no [{table}] table (see the README's \"Grades straight into the LMS\")")
        missing = [k for k in keys if not str(section.get(k, "")).strip()]
        if missing:
            raise LmsError(f"{path}: [{table}] needs {', '.join(missing)}")
    p, t, c, a, s = (data[k] for k in ("platform", "tool", "course", "assignment", "students"))
    kit = str(s.get("kit", "lms_id"))
    if kit not in KIT_KEYS:
        raise LmsError(f"{path}: [students] kit must be one of {', '.join(KIT_KEYS)}, not {kit!r}")
    if str(s["member"]).startswith(("message:", "custom:")) and not _optional(c, "resource_link_id"):
        raise LmsError(f"{path}: [students] member {s['member']} is in the members' message section, which the "
                       "platform gives only with [course] resource_link_id: add it")
    maximum = a.get("score_maximum")
    if maximum is not None and (not isinstance(maximum, (int, float)) or maximum <= 0):
        raise LmsError(f"{path}: [assignment] score_maximum must be a positive number")
    return Platform(
        path=path, issuer=str(p["issuer"]), client_id=str(p["client_id"]), deployment_id=str(p["deployment_id"]),
        token_url=str(p["token_url"]), token_audience=_optional(p, "token_audience"),
        private_key=read_key(path.parent / str(t["private_key"]), path), key_id=_optional(t, "key_id"),
        lineitems=str(c["lineitems"]), memberships=str(c["memberships"]),
        resource_link_id=_optional(c, "resource_link_id"), tag=str(a["tag"]),
        label=str(a.get("label") or a["tag"]), score_maximum=float(maximum) if maximum is not None else None,
        member=str(s["member"]), kit=kit,
        roster=path.parent / str(s["roster"]) if str(s.get("roster", "")).strip() else None)


def read_key(key: Path, config: Path) -> str:
    """The tool's RSA private key as PEM text, checked to be one before anything is sent."""
    from cryptography.hazmat.primitives.asymmetric import rsa
    from cryptography.hazmat.primitives.serialization import load_pem_private_key

    try:
        text = key.read_text(encoding="ascii")
        loaded = load_pem_private_key(text.encode("ascii"), password=None)
    except OSError as err:
        raise LmsError(f"{config}: [tool] private_key {key}: can't read it ({err.strerror or err})") from None
    except (ValueError, TypeError, UnicodeDecodeError):
        raise LmsError(f"{config}: [tool] private_key {key} is not an unencrypted PEM private key "
                       "(make one: openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048)") from None
    if not isinstance(loaded, rsa.RSAPrivateKey):
        raise LmsError(f"{config}: [tool] private_key {key} is not an RSA key: LTI 1.3 signs with RS256")
    return text


def _optional(table: dict, key: str) -> str | None:
    value = str(table.get(key, "")).strip()
    return value or None
