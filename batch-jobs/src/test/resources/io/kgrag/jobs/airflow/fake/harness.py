"""Imports a DAG file against the fake airflow package and prints its DAG as JSON (kgrag's tests)."""

import importlib.util
import json
import sys

import airflow
import airflow.models

path = sys.argv[1]
spec = importlib.util.spec_from_file_location("dag_under_test", path)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
dags = [v for v in vars(module).values() if isinstance(v, airflow.DAG)]
if len(dags) != 1:
    sys.exit(f"{path}: expected one DAG at module level, found {len(dags)}")
dag = dags[0]
tasks = []
for t in dag.tasks.values():
    tasks.append({
        "task_id": t.task_id,
        "upstream": sorted(t.upstream_task_ids),
        "java_class": t.java_class,
        "application": t.application,
        "application_args": t.application_args,
        "jars": t.jars,
        "properties_file": t.properties_file,
        "conn_id": t.conn_id,
        "conf": t.conf,
        "name": t.name,
    })
print(json.dumps({
    "dag_id": dag.dag_id,
    "schedule": dag.schedule,
    "catchup": dag.catchup,
    "variables_requested": airflow.models.requested,
    "tasks": tasks,
}))
