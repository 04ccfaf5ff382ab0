"""`autograder lms push OUT --lti PLATFORM.toml`: the class's scores straight into the LMS's gradebook by
LTI 1.3 Advantage, as a registered tool (pylti1p3 does the signing and the service calls).

    config.py   PLATFORM.toml: the platform's issuer, client id, deployment id and endpoints, the tool's key
    members.py  NRPS: the course's members, and which one each of the kit's students is (never by name)
    sent.py     OUT/lti-sent.json: what reached the platform, so a push sends only what changed
    scores.py   what to send: one AGS score per student, with its comment and timestamp
    push.py     the push itself: the line item found or made, the scores posted, refusals in one line each
    service.py  pylti1p3's service connector, with the platform's refusals turned into one line
"""
