"""A real LTI 1.3 platform on 127.0.0.1 for the push tests: lti1p3platform (PyPI) served with http.server.

What the library does, used as it is: the OAuth2 token endpoint (`get_access_token`: a client-credentials
grant whose client assertion is a JWT signed with the tool's key, checked against the tool's registered
JWKS by kid and alg, with PyJWT's exp/iat checks), the access tokens it signs, and the AGS and NRPS
services (`AssignmentsGradesService`, `NamesRoleProvisioningService`: every call's bearer token checked
by the library's `authenticate`, the line item and membership containers, the score status codes).
What the library leaves to the platform, written here: the storage behind its abstract methods (line
items, scores, members, as dicts), the score service's rule that a score not later than the last one
kept is refused (AGS 2.0 §3.4.2; the library names the status OLD_TIMESTAMP -> 409), the web adapter
(http.server instead of Django), and, to test refusals, a switch to revoke the tokens issued so far
(401), a switch refusing the score scope (403) and a queue of statuses to answer next (5xx).
"""
from __future__ import annotations

import json
import threading
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlencode, urlsplit

import jwt
from lti1p3platform.exceptions import LineItemNotFoundException
from lti1p3platform.ltiplatform import LTI1P3PlatformConfAbstract
from lti1p3platform.membership import Context
from lti1p3platform.registration import Registration
from lti1p3platform.request import Request
from lti1p3platform.score import UpdateScoreStatus
from lti1p3platform.service_connector import AssignmentsGradesService, NamesRoleProvisioningService

ISSUER, CLIENT_ID, DEPLOYMENT_ID, COURSE = "https://lms.test", "10000000000042", "1:deploy", "42"
RESOURCE_LINK = "rl-1"


class Conf(LTI1P3PlatformConfAbstract):
    def init_platform_config(self, registration: Registration) -> None:
        self._registration = registration

    def get_registration_by_params(self, **kwargs) -> Registration:
        return self._registration


class HttpRequest(Request):
    def build_metadata(self, request: dict) -> dict:
        return request


class Store:
    def __init__(self, members: list[dict]):
        self.members = members
        self.lineitems: dict[str, dict] = {}
        self.scores: dict[str, dict[str, dict]] = {}      # line item id -> user id -> last score kept
        self.posts: list[tuple[str, dict, int]] = []       # every score posted: (line item, body, status)
        self.lock = threading.Lock()


class Ags(AssignmentsGradesService):
    store: Store

    def find_lineitems(self, page=1, limit=None, line_item_id=None, resource_link_id=None, resource_id=None,
                       tag=None, **_):
        items = [i for i in self.store.lineitems.values() if tag is None or i.get("tag") == tag]
        return {"content": items, "has_next": False, "next": None}

    def find_lineitem(self, line_item_id):
        if line_item_id not in self.store.lineitems:
            raise LineItemNotFoundException(line_item_id)
        return self.store.lineitems[line_item_id]

    def create_lineitem(self, creation_data):
        url = f"{self.ags.lineitems_url}/{len(self.store.lineitems) + 1}"
        self.store.lineitems[url] = {**creation_data, "id": url}
        return self.store.lineitems[url]

    def update_lineitem(self, update_data):
        self.find_lineitem(update_data["id"]).update(update_data)
        return self.store.lineitems[update_data["id"]]

    def delete_lineitem(self, line_item_id):
        self.find_lineitem(line_item_id)
        del self.store.lineitems[line_item_id]

    def update_score(self, line_item_id, score):
        self.find_lineitem(line_item_id)
        with self.store.lock:
            kept = self.store.scores.setdefault(line_item_id, {})
            last = kept.get(score["userId"])
            if last and datetime.fromisoformat(score["timestamp"]) <= datetime.fromisoformat(last["timestamp"]):
                return UpdateScoreStatus.OLD_TIMESTAMP
            kept[score["userId"]] = score
            return UpdateScoreStatus.SUCCESS if last else UpdateScoreStatus.CREATED

    def get_results(self, line_item_id, page=1, limit=None, user_id=None, **_):
        self.find_lineitem(line_item_id)
        results = [{"userId": u, "resultScore": s.get("scoreGiven"), "resultMaximum": s.get("scoreMaximum"),
                    "comment": s.get("comment"), "scoreOf": line_item_id}
                   for u, s in self.store.scores.get(line_item_id, {}).items()]
        return {"content": results, "has_next": False, "next": None}


class Nrps(NamesRoleProvisioningService):
    store: Store
    page_size: int | None = None   # members a page (None: all on one), as Canvas pages by 10
    next_page: int | None = None   # set when a page has one after it

    def get_member_data_page(self, page=1, limit=None, role=None, since=None, rlid=None, **_):
        members = [dict(m) for m in self.store.members]
        if self.page_size:
            page = int(page)
            start = (page - 1) * self.page_size
            self.next_page = page + 1 if start + self.page_size < len(members) else None
            members = members[start:start + self.page_size]
        for m in members:   # the message section only when asked with a resource link (NRPS 2.0 §2.4.3)
            message = m.pop("message", None)
            if rlid == RESOURCE_LINK and message:
                m["message"] = message
        return {"content": members, "has_next": False}

    def get_context_by_id(self):
        return Context(id=COURSE, label="BP101", title="Backprop 101")

    def is_resource_link_valid(self, context_id, resource_link_id):
        return resource_link_id == RESOURCE_LINK


class Platform:
    """The platform, serving on 127.0.0.1 until close()."""

    def __init__(self, platform_private: str, platform_public: str, tool_jwks: dict, members: list[dict],
                 *, course: str = COURSE, page_size: int | None = None):
        self.course, self.page_size = course, page_size
        self.requested: list[str] = []   # every path asked for, as it arrived
        self.registration = (Registration().set_iss(ISSUER).set_client_id(CLIENT_ID)
                             .set_deployment_id(DEPLOYMENT_ID).set_platform_private_key(platform_private)
                             .set_platform_public_key(platform_public).set_tool_key_set(tool_jwks))
        self.store = Store(members)
        self.issued: list[str] = []       # every access token given
        self.revoked: set[str] = set()    # refused from now on: 401
        self.forbid_scores = False        # the score scope withdrawn: 403
        self.next_statuses: list[int] = []  # answered to the next service calls, then the library again
        self.next_score_statuses: list[int | None] = []  # the same for score posts only (None: let through)
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def lineitems_url(self) -> str:
        return f"{self.url}/api/lti/courses/{self.course}/line_items"

    @property
    def memberships_url(self) -> str:
        return f"{self.url}/api/lti/courses/{self.course}/names_and_roles"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def conf(self) -> Conf:
        return Conf(registration=self.registration)

    # -- the web adapter ----------------------------------------------------------------------
    def answer(self, method: str, path: str, query: dict, headers: dict, body: bytes) -> tuple[int, dict, object]:
        """(status, headers, JSON body) for one request."""
        if path == "/token" and method == "POST":
            return self._token(dict(parse_qsl(body.decode())))
        request = HttpRequest({"method": method, "form_data": {}, "get_data": query, "headers": headers,
                               "content_type": headers.get("Content-Type"), "path": path,
                               "json": json.loads(body) if body else None})
        refusal = self._refusal(headers, path)
        if refusal:
            return refusal, {}, {"error": "refused by the test's switch"}
        try:
            response = self._route(method, path, request)
        except jwt.PyJWTError as err:   # the library's token check raises PyJWT's errors as they are
            return 401, {}, {"error": f"invalid token: {err}"}
        if response is None:
            return 404, {}, {"error": "no such endpoint"}
        extra = {"Content-Type": response.media_type}
        if 200 <= response.code < 300:
            result = response.result
            data = result["content"] if isinstance(result, dict) and "content" in result else result
            if isinstance(result, dict) and result.get("next"):
                extra["Link"] = f'<{result["next"]}>; rel="next"'   # quoted, as the NRPS and AGS specs show it
            return response.code, extra, data
        return response.code, extra, {"error": response.message}

    def _token(self, form: dict) -> tuple[int, dict, object]:
        try:
            token = self.conf().get_access_token(form)
        except jwt.PyJWTError as err:
            return 401, {}, {"error": "invalid_client", "error_description": str(err)}
        except Exception as err:  # noqa: BLE001  the library's own refusals (no key for that kid, a claim missing)
            return 400, {}, {"error": "invalid_request", "error_description": f"{type(err).__name__}: {err}"}
        self.issued.append(token["access_token"])
        return 200, {}, token

    def _refusal(self, headers: dict, path: str) -> int | None:
        if self.next_statuses:
            return self.next_statuses.pop(0)
        if path.endswith("/scores") and self.next_score_statuses:
            status = self.next_score_statuses.pop(0)
            if status is not None:
                return status
        if headers.get("Authorization", "").partition(" ")[2] in self.revoked:
            return 401
        if self.forbid_scores and path.endswith("/scores"):
            return 403
        return None

    def _route(self, method: str, path: str, request: HttpRequest):
        conf = self.conf()
        if path.startswith(urlsplit(self.memberships_url).path):
            nrps = Nrps(request, conf, self.memberships_url)
            nrps.store, nrps.page_size = self.store, self.page_size
            response = nrps.handle_resp(nrps.handle_get_members)
            if response.code == 200 and nrps.next_page:   # a Link header as NRPS 2.0 §2.4.1 shows it
                query = {**request.get_data, "page": nrps.next_page}
                response.result["next"] = f"{self.memberships_url}?{urlencode(query)}"
            return response
        base = urlsplit(self.lineitems_url).path
        if not path.startswith(base):
            return None
        rest = path[len(base):].strip("/").split("/") if path[len(base):].strip("/") else []
        item = f"{self.lineitems_url}/{rest[0]}" if rest else None
        ags = Ags(request, conf, self.lineitems_url, item)
        ags.store = self.store
        if not rest:
            return ags.handle_resp(ags.handle_get_lineitems if method == "GET" else ags.handle_create_lineitem)
        if rest[1:] == ["scores"]:
            response = ags.handle_resp(ags.handle_update_score, line_item_id=item)
            with self.store.lock:
                self.store.posts.append((item, request.json, response.code))
            return response
        if rest[1:] == ["results"]:
            return ags.handle_resp(ags.handle_get_results, line_item_id=item)
        handler = {"GET": ags.handle_get_lineitem, "PUT": ags.handle_update_lineitem,
                   "DELETE": ags.handle_delete_lineitem}[method]
        return ags.handle_resp(handler, line_item_id=item)

    def _handler(self):
        platform = self

        class Handler(BaseHTTPRequestHandler):
            def _serve(self):
                split = urlsplit(self.path)
                platform.requested.append(split.path)
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                status, headers, data = platform.answer(self.command, split.path, dict(parse_qsl(split.query)),
                                                        dict(self.headers), body)
                payload = json.dumps(data).encode() if data is not None else b""
                self.send_response(status)
                for k, v in {"Content-Type": "application/json", **headers}.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = do_PUT = do_DELETE = _serve

            def log_message(self, *args):
                pass

        return Handler


def revoke_tokens(platform: Platform) -> None:
    """Every access token issued so far refused from now on (as an expired one is)."""
    platform.revoked.update(platform.issued)
