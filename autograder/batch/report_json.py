"""A report back from its JSON form (json_report.report_dict, as the store keeps it)."""
from __future__ import annotations

from autograder.report.model import CaseGraph, CaseResult, Diagnosis, GraphNode, Place, Report, TaskResult
from autograder.variants.model import Variant


def _graph(data: dict | None) -> CaseGraph | None:
    if not data:
        return None
    return CaseGraph(tuple(GraphNode(**{**n, "children": tuple(n["children"])}) for n in data["nodes"]),
                     origin=data.get("origin", ""), after=tuple(data.get("after", ())), step=data.get("step", ""))


def _diagnosis(d: dict) -> Diagnosis:
    where = d.get("where")
    return Diagnosis(d["id"], d["message"], bool(d.get("proven", False)), d.get("fix"),
                     Place(where["file"], where["line"], where.get("cell")) if where else None)


def report_from_dict(data: dict) -> Report:
    """The Report back from its JSON form: report_from_dict(report_dict(r)) == r."""
    tasks = tuple(
        TaskResult(t["id"], t["title"], t["score"], t["max_score"], tuple(
            CaseResult(c["id"], c["status"], c["visibility"], c["message"], c["title"], tuple(c["details"]),
                       c.get("output", ""), bool(c.get("counted", True)), _graph(c.get("graph")),
                       tuple(c.get("charged_to", ())))
            for c in t["cases"]
        ), tuple(_diagnosis(d) for d in t.get("diagnosis", ())), t.get("where", ""))
        for t in data["tasks"]
    )
    return Report(data["submission"], data["score"], data["max_score"], tasks, data["error"],
                  data["sandbox"], tuple(data["notes"]), data["kit_version"],
                  import_output=data.get("import_output", ""),
                  import_errors=tuple(data.get("import_errors", {}).items()),
                  variant=Variant.from_json(data["variant"]) if data.get("variant") else None,
                  samples=tuple((s["op"], tuple(s["out"]), tuple(s["grad"])) for s in data.get("forensic_samples", ())),
                  syntax=tuple((m, s["line"], s["column"]) for m, s in data.get("import_syntax", {}).items()))
