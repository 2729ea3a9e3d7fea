"""Fake SparkSubmitOperator with the signature, templated fields and attribute names of
apache-airflow-providers-apache-spark 4.11 (conn_id and java_class are private there, and not templated)."""

from airflow import BaseOperator


class SparkSubmitOperator(BaseOperator):
    template_fields = ("application", "conf", "files", "py_files", "jars", "driver_class_path", "packages",
                       "exclude_packages", "keytab", "principal", "proxy_user", "name", "application_args",
                       "env_vars", "properties_file")

    def __init__(self, *, application="", conf=None, conn_id="spark_default", files=None, py_files=None,
                 archives=None, driver_class_path=None, jars=None, java_class=None, packages=None,
                 exclude_packages=None, repositories=None, total_executor_cores=None, executor_cores=None,
                 executor_memory=None, driver_memory=None, keytab=None, principal=None, proxy_user=None,
                 name="arrow-spark", num_executors=None, status_poll_interval=1, application_args=None,
                 env_vars=None, verbose=False, spark_binary=None, properties_file=None, yarn_queue=None,
                 deploy_mode=None, use_krb5ccache=False, **kwargs):
        super().__init__(**kwargs)
        if application_args is not None and not all(isinstance(a, str) for a in application_args):
            raise TypeError(f"{self.task_id}: application_args must be strings: {application_args!r}")
        self.application = application
        self.conf = conf
        self.files = files
        self.py_files = py_files
        self.driver_class_path = driver_class_path
        self.jars = jars
        self.packages = packages
        self.exclude_packages = exclude_packages
        self.keytab = keytab
        self.principal = principal
        self.proxy_user = proxy_user
        self.name = name
        self.application_args = application_args
        self.env_vars = env_vars
        self.properties_file = properties_file
        self._java_class = java_class
        self._conn_id = conn_id
