"""Is the next page of a paged NRPS or AGS list read exactly as the platform's Link header gives it?

pylti1p3 2.0.0 lowercases the whole header before it reads the URL: on a course path with capitals page 2
answered 404 and nothing was sent (the push against a real platform: test_lti_paging.py)."""
from __future__ import annotations

from autograder.lms.lti.service import exact_next_page

URL = "https://lms.test/api/lti/courses/ML101-Fall/names_and_roles?rlid=RL-1&page=2"


def page(link: str | None) -> dict:
    headers = {"Content-Type": "application/json"} | ({"Link": link} if link is not None else {})
    return {"headers": headers, "body": {}, "next_page_url": URL.lower() if link else None}


def test_is_the_next_url_kept_with_its_capitals():
    assert exact_next_page(page(f'<{URL}>; rel="next"'))["next_page_url"] == URL


def test_is_next_found_among_other_links_and_in_any_spelling_the_rfc_allows():
    link = f'<https://lms.test/first>; rel="first",\n <{URL}>; REL=next, <https://lms.test/last>; rel="last"'
    assert exact_next_page(page(link))["next_page_url"] == URL
    assert exact_next_page(page('<https://lms.test/a>; rel="prev"'))["next_page_url"] is None
    assert exact_next_page(page(None))["next_page_url"] is None
