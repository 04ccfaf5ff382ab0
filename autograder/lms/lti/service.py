"""pylti1p3's service connector for a tool that runs from the command line: the tool's key and the
platform's token endpoint from PLATFORM.toml, an access token fetched again once when the platform says
the one it gave has expired, and every refusal turned into a Refused with one line that says what to do."""
from __future__ import annotations

import json
import re

import requests
from pylti1p3.exception import LtiException, LtiServiceException
from pylti1p3.registration import Registration
from pylti1p3.service_connector import ServiceConnector

from autograder.lms.lti.config import Platform

TIMEOUT = 30  # seconds per request
USER_AGENT = "backprop-kit (pylti1p3)"


class Refused(Exception):
    """The platform said no, or could not be reached: `line` says which and what to do. `status` is the
    HTTP status (0: no answer). Fatal unless it concerns one score alone (409, or a 4xx about its body)."""

    def __init__(self, status: int, line: str):
        super().__init__(line)
        self.status, self.line = status, line

    @property
    def stops_the_push(self) -> bool:
        return self.status not in (400, 404, 409, 422)


def why(status: int, what: str, platform: Platform, detail: str = "") -> str:
    """One line for a refusal of `what` (e.g. "the access token", "the score of lee_1002")."""
    detail = f" ({detail})" if detail else ""
    if status == 0:
        return f"{what}: no answer from the platform{detail}: is it up, and are the URLs in {platform.path} right?"
    if status == 401:
        return (f"{what}: refused (401){detail}: the platform did not accept the tool's credentials: are the key "
                f"the one registered (its public JWK: `autograder lms jwk {platform.path}`), client_id "
                f"{platform.client_id} and token_url right?")
    if status == 403:
        return (f"{what}: forbidden (403){detail}: the tool's registration lacks this service's scope, or the "
                "course did not enable the tool: ask the LMS admin (see the README)")
    if status == 409:
        return f"{what}: the platform holds a newer score (409){detail}: not sent over it"
    if status >= 500:
        return f"{what}: the platform failed ({status}){detail}: try again later"
    return f"{what}: refused ({status}){detail}"


class Connector(ServiceConnector):
    """pylti1p3's ServiceConnector; a 401 on a service call fetches a fresh access token and tries once more,
    and the next page's URL is the platform's own (exact_next_page)."""

    def make_service_request(self, scopes, url, **kwargs):
        try:
            return exact_next_page(super().make_service_request(scopes, url, **kwargs))
        except LtiServiceException as err:
            if err.response.status_code != 401 or not self._access_tokens:
                raise
            self._access_tokens.clear()   # expired or revoked: one new token, one more try
            return exact_next_page(super().make_service_request(scopes, url, **kwargs))


NEXT = re.compile(r'<([^>]*)>\s*;\s*rel\s*=\s*"?next"?', re.IGNORECASE)


def exact_next_page(response: dict) -> dict:
    """The next page's URL exactly as the platform's Link header gives it. pylti1p3 2.0.0 lowercases the whole
    header before it reads the URL, so on a course path with capitals (/courses/ML101-Fall/...) page 2 of
    the members answers 404 (its upstream fix, PR #139, was closed unmerged; the fork pylti1p3next has it)."""
    headers = response.get("headers") or {}
    link = next((str(v) for k, v in headers.items() if str(k).lower() == "link"), "")
    found = NEXT.search(link.replace("\n", " "))
    response["next_page_url"] = found.group(1) if found else None
    return response


class KitRegistration(Registration):
    """The tool's registration with the key_id PLATFORM.toml names, if it names one."""

    def __init__(self, key_id: str | None):
        super().__init__()
        self.key_id = key_id

    def get_kid(self):
        return self.key_id or super().get_kid()


def public_jwk(private_pem: str, key_id: str | None = None) -> dict:
    """The tool's public key as the JWK a platform registers (Canvas: Public JWK; Moodle: Keyset URL's key)."""
    from jwcrypto.jwk import JWK

    public = JWK.from_pem(private_pem.encode("ascii")).export_to_pem().decode("ascii")
    jwk = dict(Registration.get_jwk(public))
    if key_id:
        jwk["kid"] = key_id
    return jwk


def connector(platform: Platform, session: requests.Session | None = None) -> Connector:
    from jwcrypto.jwk import JWK

    registration = KitRegistration(platform.key_id)
    registration.set_issuer(platform.issuer).set_client_id(platform.client_id)
    registration.set_auth_token_url(platform.token_url).set_tool_private_key(platform.private_key)
    if platform.token_audience:
        registration.set_auth_audience(platform.token_audience)
    registration.set_tool_public_key(JWK.from_pem(platform.private_key.encode("ascii")).export_to_pem().decode("ascii"))
    if session is None:
        session = TimeoutSession()
        session.headers["User-Agent"] = USER_AGENT
    return Connector(registration, session)


class TimeoutSession(requests.Session):
    """No request waits forever on a platform that does not answer."""

    def request(self, *args, **kwargs):
        kwargs.setdefault("timeout", TIMEOUT)
        return super().request(*args, **kwargs)


def call(platform: Platform, what: str, fn, *args, **kwargs):
    """fn(*args, **kwargs) (a pylti1p3 service call), its failures as one Refused."""
    try:
        return fn(*args, **kwargs)
    except LtiServiceException as err:
        status = err.response.status_code
        raise Refused(status, why(status, what, platform, _detail(err.response))) from None
    except requests.RequestException as err:
        raise Refused(0, why(0, what, platform, type(err).__name__)) from None
    except (LtiException, ValueError, KeyError, TypeError) as err:   # a body that is not JSON, or not LTI's
        raise Refused(0, f"{what}: the platform's answer is not what LTI 1.3 specifies ({type(err).__name__}: "
                         f"{str(err)[:120]}): are the URLs in {platform.path} the platform's LTI endpoints?") from None


def _detail(response: requests.Response) -> str:
    """The platform's own short reason, if it gave one (an OAuth2 error, an "error" field)."""
    try:
        body = response.json()
    except ValueError:
        return ""
    if isinstance(body, dict):
        text = body.get("error_description") or body.get("error") or body.get("message") or ""
        return json.dumps(text)[1:-1][:120] if isinstance(text, str) else ""
    return ""
