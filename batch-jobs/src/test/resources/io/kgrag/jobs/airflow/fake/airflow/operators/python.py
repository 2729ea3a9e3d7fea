"""Fake airflow.operators.python: PythonOperator, BranchPythonOperator and ShortCircuitOperator record their callable."""

from airflow import BaseOperator


class PythonOperator(BaseOperator):
    template_fields = ("templates_dict", "op_args", "op_kwargs")

    def __init__(self, *, python_callable, op_args=None, op_kwargs=None, templates_dict=None, templates_exts=None,
                 show_return_value_in_logs=True, **kwargs):
        super().__init__(**kwargs)
        if not callable(python_callable):
            raise TypeError(f"{self.task_id}: python_callable is not callable")
        self.python_callable = python_callable
        self.op_args = list(op_args or [])
        self.op_kwargs = dict(op_kwargs or {})
        self.templates_dict = templates_dict


class BranchPythonOperator(PythonOperator):
    pass


class ShortCircuitOperator(PythonOperator):
    def __init__(self, *, ignore_downstream_trigger_rules=True, **kwargs):
        super().__init__(**kwargs)
