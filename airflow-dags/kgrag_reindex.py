"""kgrag_reindex: daily re-indexing of kgrag's knowledge graph on Spark.

ingest -> schema -> embed -> gnn -> paths -> path_index, then (Variable kgrag_run_qa = true) per method of
kgrag_qa_methods a QA regression run (kgrag qa) and its scores (kgrag eval). Every task is a
SparkSubmitOperator running io.kgrag.jobs.KgragMain; the tasks, their arguments and the Variables they
read are declared in kgrag_reindex.commands.json beside this file (the project's tests check that file
against the real kgrag command line). Targets Airflow 2.10 with apache-airflow-providers-apache-spark 4.11.

Variables are read when the scheduler parses this file, so a change takes effect at the next parse.
"""

import json
import os
import re
from datetime import datetime, timedelta

from airflow import DAG
from airflow.models import Variable
from airflow.providers.apache.spark.operators.spark_submit import SparkSubmitOperator

COMMANDS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kgrag_reindex.commands.json")

# {name} in the commands file; Jinja's {{ ... }} (with its spaces) never matches
PLACEHOLDER = re.compile(r"\{([a-z][a-z0-9_]*)\}")
TRUE = ("true", "1", "yes", "on")


class CommandsError(ValueError):
    """The commands file is not usable; the message names the file and the task."""


def load_commands(path=COMMANDS_FILE):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def settings(commands):
    """Each placeholder's value: its Airflow Variable (or the documented default), then the constants."""
    values = {}
    for key, spec in commands["variables"].items():
        values[key] = str(Variable.get(spec["variable"], default_var=spec["default"]))
    for key, value in commands.get("constants", {}).items():
        values[key] = value
    return values


def fill(text, values, where):
    """text with every {name} replaced by its value, in one pass (values are never rescanned)."""

    def one(match):
        name = match.group(1)
        if name not in values:
            raise CommandsError(f"{COMMANDS_FILE}: {where}: unknown placeholder {{{name}}}")
        return values[name]

    return PLACEHOLDER.sub(one, text)


def items(value):
    return [v.strip() for v in value.split(",") if v.strip()]


def expand(commands, values):
    """The DAG's tasks: dicts of task_id, upstream, java_class and the operator's arguments, in file order."""
    switch = commands.get("optional_switch")
    with_optional = switch is not None and values[switch].strip().lower() in TRUE
    operator = commands.get("operator", {})
    tasks = []
    for task in commands["tasks"]:
        if task.get("optional", False) and not with_optional:
            continue
        each = task.get("for_each")
        for item in items(values[each]) if each else [None]:
            local = dict(values)
            if item is not None:
                local["item"] = item
            task_id = fill(task["id"], local, f"task {task['id']}")
            where = f"task {task_id}"
            kwargs = {}
            for key in ("application", "jars", "properties_file", "conn_id"):
                if key in operator:
                    kwargs[key] = fill(operator[key], local, f"{where}: operator {key}") or None
            tasks.append({
                "task_id": task_id,
                "upstream": [fill(u, local, f"{where}: upstream") for u in task.get("upstream", [])],
                "java_class": task.get("main_class", commands["main_class"]),
                "application_args": [task["command"]] + [fill(a, local, where) for a in task["args"]],
                "conf": {k: fill(v, local, f"{where}: conf") for k, v in operator.get("conf", {}).items()},
                "name": f"{commands['dag_id']}.{task_id}",
                **kwargs,
            })
    ids = {t["task_id"] for t in tasks}
    for t in tasks:
        for u in t["upstream"]:
            if u not in ids:
                raise CommandsError(f"{COMMANDS_FILE}: task {t['task_id']}: upstream task {u} does not exist")
    return tasks


def build_dag(commands=None):
    commands = commands or load_commands()
    values = settings(commands)
    with DAG(
        dag_id=commands["dag_id"],
        description="kgrag: daily re-indexing (ingest, schema, embed, gnn, paths, path-index) and optional QA regression run",
        schedule=commands["schedule"],
        start_date=datetime(2025, 1, 1),
        catchup=False,
        max_active_runs=1,
        default_args={"owner": "kgrag", "retries": 1, "retry_delay": timedelta(minutes=10)},
        tags=["kgrag"],
    ) as dag:
        operators = {}
        tasks = expand(commands, values)
        for t in tasks:
            operators[t["task_id"]] = SparkSubmitOperator(
                task_id=t["task_id"],
                application=t.get("application"),
                java_class=t["java_class"],
                application_args=t["application_args"],
                jars=t.get("jars"),
                properties_file=t.get("properties_file"),
                conn_id=t.get("conn_id") or "spark_default",
                conf=t["conf"],
                name=t["name"],
            )
        for t in tasks:
            for u in t["upstream"]:
                operators[u] >> operators[t["task_id"]]
    return dag


dag = build_dag()
