"""
### kgrag_reindex: daily re-indexing of kgrag's knowledge graph on Spark

`ingest >> schema >> embed >> gnn >> paths >> path_index`, one `kgrag reindex --stages <stage>` each, then
`choose_qa`: when the run's `run_qa` param is true, a QA regression run (`kgrag qa`) per method named in
`qa_methods`, each followed by its scores (`kgrag eval`); otherwise the QA tasks are skipped.

Every kgrag task is a `SparkSubmitOperator` running `io.kgrag.jobs.KgragMain`. The settings are the DAG's
`params` (defaults below; override per run with `airflow dags trigger kgrag_reindex --conf '{...}'` or the
"Trigger DAG w/ config" form), used through Jinja in the operators' templated fields (`application`,
`application_args`, `jars`, `properties_file`); nothing is read from Variables or files when the scheduler parses
this file. The Spark connection is the one exception: `conn_id` is not a templated field of `SparkSubmitOperator`,
so it is the constant `SPARK_CONN_ID` (point that Airflow connection at your master).

The QA tasks are a fixed list, one `qa_<method>` and one `eval_<method>` per method of `QA_METHODS`, rather than
dynamic task mapping over the param: every command shows in the file and in the graph view under its own name,
each eval follows exactly its own qa, and a retry or a log is per method. `choose_qa` (a branch on the params)
picks the methods a run wants; the others are skipped.

Targets Airflow 2.10 with apache-airflow-providers-apache-spark 4.11. See README.md beside this file.
"""

from datetime import datetime, timedelta

from airflow import DAG
from airflow.models.param import Param
from airflow.operators.python import BranchPythonOperator
from airflow.providers.apache.spark.operators.spark_submit import SparkSubmitOperator

KGRAG_MAIN = "io.kgrag.jobs.KgragMain"

# conn_id is not templated by SparkSubmitOperator; the connection's host is the master (yarn, k8s://..., spark://...)
SPARK_CONN_ID = "spark_default"

# kgrag's retrieval methods, each with a qa and an eval task; the params' qa_methods picks among them per run
# (stem also needs the stem-gnn stage, dense a document corpus: see README.md)
QA_METHODS = ["auto", "dense", "qafd", "sgrag", "simgrag", "srag", "stem"]

# one id for the index stages of a DAG run (the runs table); each QA run adds its method
RUN_ID = "kgrag-{{ ts_nodash }}"

# the warehouse option of every kgrag command
WAREHOUSE = ["--warehouse", "{{ params.warehouse }}"]

default_args = {
    "owner": "kgrag",
    "retries": 2,
    "retry_delay": timedelta(minutes=10),
    "retry_exponential_backoff": True,
    "max_retry_delay": timedelta(hours=1),
}

params = {
    "warehouse": Param("hdfs:///kgrag/warehouse", type="string", description="Root of kgrag's Delta tables (--warehouse)."),
    "incoming": Param(
        "hdfs:///kgrag/incoming", type="string",
        description="Folder of the daily batches: a run ingests <incoming>/<ds> (a file or folder of triples or documents)."),
    "input_format": Param("tsv", type="string", description="Format of the batch (--format): tsv, pipe, ntriples, text, jsonl or json-corpus."),
    "application_jar": Param(
        "/opt/kgrag/batch-jobs/target/kgrag-jobs-0.1.0-SNAPSHOT.jar", type="string",
        description="kgrag's job jar, readable by every worker (mvn -DskipTests install builds it in batch-jobs/target/)."),
    "jars": Param(
        "", type="string",
        description="kgrag's dependencies for --jars: batch-jobs/target/runtime-classpath.txt with ':' made ','; empty: none."),
    "properties_file": Param(
        "/opt/kgrag/conf/cluster.properties", type="string",
        description="The deployment profile, spark-submit --properties-file; empty: Spark's spark-defaults.conf."),
    "run_qa": Param(False, type="boolean", description="After the index, a QA regression run and its eval per method of qa_methods."),
    "qa_methods": Param(
        ["sgrag"], type="array", items={"type": "string", "enum": QA_METHODS},
        description="The retrieval methods of the QA regression run."),
    "questions": Param(
        "/opt/kgrag/regression/questions.csv", type="string",
        description="The regression questions (qa --questions: ERQA csv, MetaQA tsv, jsonl or a Delta table)."),
    "qa_dataset": Param("regression", type="string", description="Name of the question set (qa --dataset)."),
}


def kgrag(task_id, *args):
    """A task running `kgrag <args>` with spark-submit: the job jar, its dependencies and profile from the params."""
    return SparkSubmitOperator(
        task_id=task_id,
        conn_id=SPARK_CONN_ID,
        application="{{ params.application_jar }}",
        java_class=KGRAG_MAIN,
        jars="{{ params.jars }}",
        properties_file="{{ params.properties_file }}",
        # as bin/kgrag: no model downloads; the label index's SIMD inner products (the same bits without them)
        conf={"spark.driver.extraJavaOptions": "-Dai.djl.offline=true --add-modules=jdk.incubator.vector"},
        name=f"kgrag_reindex.{task_id}",
        application_args=list(args),
    )


def qa_tasks_to_run(params):
    """The qa tasks this run wants: none unless run_qa, else one per method of qa_methods."""
    if not params["run_qa"]:
        return []
    return [f"qa_{method}" for method in params["qa_methods"]]


with DAG(
    dag_id="kgrag_reindex",
    description="kgrag: daily re-indexing (ingest, schema, embed, gnn, paths, path-index) and an optional QA regression run",
    doc_md=__doc__,
    schedule="@daily",
    start_date=datetime(2025, 1, 1),
    catchup=False,
    max_active_runs=1,
    default_args=default_args,
    params=params,
    tags=["kgrag"],
) as dag:
    ingest = kgrag(
        "ingest", "reindex", "--stages", "ingest",
        "--input", "{{ params.incoming }}/{{ ds }}", "--format", "{{ params.input_format }}", *WAREHOUSE, "--run-id", RUN_ID)
    schema = kgrag("schema", "reindex", "--stages", "schema", *WAREHOUSE, "--run-id", RUN_ID)
    embed = kgrag("embed", "reindex", "--stages", "embed", *WAREHOUSE, "--run-id", RUN_ID)
    gnn = kgrag("gnn", "reindex", "--stages", "gnn", *WAREHOUSE, "--run-id", RUN_ID)
    paths = kgrag("paths", "reindex", "--stages", "paths", *WAREHOUSE, "--run-id", RUN_ID)
    path_index = kgrag("path_index", "reindex", "--stages", "path-index", *WAREHOUSE, "--run-id", RUN_ID)

    choose_qa = BranchPythonOperator(task_id="choose_qa", python_callable=qa_tasks_to_run)

    ingest >> schema >> embed >> gnn >> paths >> path_index >> choose_qa

    for method in QA_METHODS:
        qa_run = f"{RUN_ID}-qa-{method}"
        qa = kgrag(
            f"qa_{method}", "qa", "--method", method, "--questions", "{{ params.questions }}",
            "--dataset", "{{ params.qa_dataset }}", *WAREHOUSE, "--run-id", qa_run)
        scores = kgrag(f"eval_{method}", "eval", "--run-id", qa_run, *WAREHOUSE)
        choose_qa >> qa >> scores
