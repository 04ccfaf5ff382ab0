# Makes `pytest` here grade your micrograd/ on the public cases, one test per task.
from importlib.metadata import entry_points

if not any(ep.name == "autograder" for ep in entry_points(group="pytest11")):
    pytest_plugins = ["autograder.pytest_plugin"]
