"""A fake of the few parts of Airflow 2.10 that kgrag_reindex.py uses, for kgrag's tests (Airflow is not installed).

DAG is a context manager that collects the operators created inside it; the signatures are Airflow's own
(keyword arguments only where Airflow's are), so a misspelled argument in the DAG file fails here too. As in
Airflow, an operator takes the DAG's default_args for the arguments it does not get, and a DAG with a schedule
checks its params' defaults against their schemas (with jsonschema, when installed).
"""

from datetime import timedelta

_current = []


class DAG:
    def __init__(self, dag_id, description=None, schedule=None, start_date=None, end_date=None, catchup=True,
                 max_active_runs=16, max_active_tasks=16, default_args=None, tags=None, params=None,
                 dagrun_timeout=None, doc_md=None, template_searchpath=None, render_template_as_native_obj=False):
        from airflow.models.param import Param

        if not isinstance(dag_id, str) or not dag_id:
            raise ValueError("dag_id must be a non-empty string")
        self.dag_id = dag_id
        self.description = description
        self.schedule = schedule
        self.start_date = start_date
        self.catchup = catchup
        self.max_active_runs = max_active_runs
        self.default_args = dict(default_args or {})
        self.tags = list(tags or [])
        self.doc_md = doc_md
        self.params = {k: v if isinstance(v, Param) else Param(v) for k, v in (params or {}).items()}
        if schedule is not None:
            for name, param in self.params.items():
                param.resolve(param.value, name)
        self.tasks = {}

    def __enter__(self):
        _current.append(self)
        return self

    def __exit__(self, *exc):
        _current.pop()
        return False

    def add_task(self, task):
        if task.task_id in self.tasks:
            raise ValueError(f"duplicate task_id {task.task_id} in DAG {self.dag_id}")
        self.tasks[task.task_id] = task


class BaseOperator:
    template_fields = ()

    def __init__(self, *, task_id, dag=None, owner=None, retries=None, retry_delay=None,
                 retry_exponential_backoff=None, max_retry_delay=None, trigger_rule="all_success", doc_md=None,
                 execution_timeout=None, pool=None, queue=None, **unexpected):
        if unexpected:
            raise TypeError(f"{type(self).__name__}: unexpected arguments {sorted(unexpected)}")
        dag = dag or (_current[-1] if _current else None)
        if dag is None:
            raise RuntimeError(f"task {task_id} created outside a DAG")
        given = dict(owner=owner, retries=retries, retry_delay=retry_delay,
                     retry_exponential_backoff=retry_exponential_backoff, max_retry_delay=max_retry_delay)
        for key, value in given.items():
            setattr(self, key, dag.default_args.get(key) if value is None else value)
        self.owner = self.owner or "airflow"
        self.retries = self.retries or 0
        self.retry_delay = self.retry_delay or timedelta(seconds=300)
        self.retry_exponential_backoff = bool(self.retry_exponential_backoff)
        self.trigger_rule = trigger_rule
        self.task_id = task_id
        self.dag = dag
        self.upstream_task_ids = set()
        self.downstream_task_ids = set()
        dag.add_task(self)

    def __rshift__(self, other):
        for o in other if isinstance(other, (list, tuple)) else [other]:
            if o.dag is not self.dag:
                raise ValueError("tasks of different DAGs")
            self.downstream_task_ids.add(o.task_id)
            o.upstream_task_ids.add(self.task_id)
        return other

    def __lshift__(self, other):
        for o in other if isinstance(other, (list, tuple)) else [other]:
            o >> self
        return other
