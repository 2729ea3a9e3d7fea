"""Fake airflow.models.Variable: values from the JSON object in $FAKE_AIRFLOW_VARIABLES, else the default."""

import json
import os

from airflow import BaseOperator, DAG  # noqa: F401 (airflow.models exports both)

_MISSING = object()
requested = {}


class Variable:
    @classmethod
    def get(cls, key, default_var=_MISSING, deserialize_json=False):
        values = json.loads(os.environ.get("FAKE_AIRFLOW_VARIABLES", "{}"))
        requested[key] = None if default_var is _MISSING else default_var
        if key in values:
            value = values[key]
        elif default_var is _MISSING:
            raise KeyError(f"Variable {key} does not exist")
        else:
            return default_var
        return json.loads(value) if deserialize_json else value
