"""Fake airflow.models: Variable.get fails, naming the Variable, because the DAG takes its settings from params."""

from airflow import BaseOperator, DAG  # noqa: F401 (airflow.models exports both)


class Variable:
    @classmethod
    def get(cls, key, default_var=None, deserialize_json=False):
        raise RuntimeError(f"the DAG file reads Airflow Variable {key} when it is parsed; take the setting from the DAG's params")
