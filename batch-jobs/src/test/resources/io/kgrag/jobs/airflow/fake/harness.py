"""Imports a DAG file against the fake airflow package and prints its DAG as JSON (kgrag's tests).

harness.py DAG_FILE [CONF_JSON]: CONF_JSON plays `airflow dags trigger --conf`: it overrides the params' defaults
(each checked against its schema). The import fails if the file opens a file while it is parsed. Every task's
templated fields are rendered as Airflow renders them (Jinja with StrictUndefined, the run's params and the
macros below) when jinja2 is installed ("rendered": false otherwise); a branch's callable is called with the
params and its answer given as "follows".
"""

import builtins
import importlib.util
import inspect
import io
import json
import sys
from datetime import timedelta

import airflow
from airflow.models import param as param_module

try:
    import jinja2
except ImportError:
    jinja2 = None

# the macros of a scheduled run for 2025-01-02 that the DAG may use
MACROS = {
    "ds": "2025-01-02",
    "ds_nodash": "20250102",
    "ts": "2025-01-02T00:00:00+00:00",
    "ts_nodash": "20250102T000000",
    "run_id": "scheduled__2025-01-02T00:00:00+00:00",
}


def no_open(file, *args, **kwargs):
    raise RuntimeError(f"the DAG file opens {file} when it is parsed; take the setting from the DAG's params")


def load(path):
    spec = importlib.util.spec_from_file_location("dag_under_test", path)
    module = importlib.util.module_from_spec(spec)
    real_open = builtins.open
    builtins.open = io.open = no_open
    try:
        spec.loader.exec_module(module)
    finally:
        builtins.open = io.open = real_open
    dags = [v for v in vars(module).values() if isinstance(v, airflow.DAG)]
    if len(dags) != 1:
        sys.exit(f"{path}: expected one DAG at module level, found {len(dags)}")
    return dags[0]


def render(value, env, context):
    """As Airflow's render_template: strings rendered, lists, tuples and dict values recursively, others kept."""
    if isinstance(value, str):
        return env.from_string(value).render(**context)
    if isinstance(value, (list, tuple)):
        return [render(v, env, context) for v in value]
    if isinstance(value, dict):
        return {k: render(v, env, context) for k, v in value.items()}
    return value


def plain(value):
    if isinstance(value, timedelta):
        return value.total_seconds()
    return value


def main(path, conf):
    dag = load(path)
    params = {name: p.value for name, p in dag.params.items()}
    params.update(conf)
    params = {name: dag.params[name].resolve(v, name) if name in dag.params else v for name, v in params.items()}
    context = dict(MACROS, params=params, dag=dag)
    env = jinja2.Environment(undefined=jinja2.StrictUndefined) if jinja2 else None
    tasks = []
    for t in dag.tasks.values():
        task = {
            "task_id": t.task_id,
            "operator": type(t).__name__,
            "upstream": sorted(t.upstream_task_ids),
            "downstream": sorted(t.downstream_task_ids),
            "owner": t.owner,
            "retries": t.retries,
            "retry_delay_s": plain(t.retry_delay),
            "retry_exponential_backoff": t.retry_exponential_backoff,
            "trigger_rule": t.trigger_rule,
        }
        for field in t.template_fields:
            value = getattr(t, field)
            if env is not None:
                try:
                    value = render(value, env, context)
                except jinja2.TemplateError as e:
                    sys.exit(f"{path}: task {t.task_id}: field {field}: {type(e).__name__}: {e}")
            task[field] = value
        if hasattr(t, "_java_class"):
            task["java_class"] = t._java_class
            task["conn_id"] = t._conn_id
        if hasattr(t, "python_callable"):
            wanted = inspect.signature(t.python_callable).parameters
            kwargs = {k: v for k, v in dict(context, **t.op_kwargs).items() if k in wanted}
            task["follows"] = t.python_callable(*t.op_args, **kwargs)
        tasks.append(task)
    print(json.dumps({
        "dag_id": dag.dag_id,
        "schedule": dag.schedule,
        "catchup": dag.catchup,
        "max_active_runs": dag.max_active_runs,
        "doc_md": dag.doc_md,
        "params": {n: {"default": p.value, "description": p.description, "schema": p.schema} for n, p in dag.params.items()},
        "rendered": env is not None,
        "schemas_checked": param_module.jsonschema is not None,
        "tasks": tasks,
    }, default=plain))


if __name__ == "__main__":
    main(sys.argv[1], json.loads(sys.argv[2]) if len(sys.argv) > 2 else {})
