package io.kgrag.jobs.airflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * airflow-dags/kgrag_reindex.py with python3: it compiles; imported against a small fake of Airflow (DAG, Param,
 * BranchPythonOperator, SparkSubmitOperator, {@code >>}) it is a daily DAG whose tasks retry, whose params all have
 * a default and a description (and rows in README.md), whose QA tasks run only when a run's conf asks for them,
 * whose templates take a run's conf; and it reads no Variable nor file while it is parsed. Variants of the file
 * show that a parse-time read, a misspelled template name or a misspelled kgrag option is caught. Without python3
 * (or jinja2, for the rendered checks) the tests are skipped, saying so.
 */
class DagFilePythonTest {
  @TempDir Path tmp;

  private DagCommands defaults() {
    return DagCommands.load(tmp, DagCommands.dagFile(), Map.of());
  }

  /** A copy of the DAG file with {@code from} replaced by {@code to} (which must change it). */
  private Path variant(String from, String to) throws IOException {
    String text = Files.readString(DagCommands.dagFile());
    assertTrue(text.contains(from), DagCommands.dagFile() + " no longer contains " + from + "; update this test's variant");
    Path dir = Files.createDirectories(tmp.resolve("variant-" + System.nanoTime()));
    Path file = dir.resolve("kgrag_reindex.py");
    Files.writeString(file, text.replace(from, to));
    return file;
  }

  @Test
  void dagFileCompiles() {
    DagCommands.Result r = DagCommands.python(tmp, Map.of(), "-m", "py_compile", DagCommands.dagFile().toString());
    assertEquals(0, r.code(), "python3 -m py_compile " + DagCommands.dagFile() + ":\n" + r.err() + r.out());
  }

  @Test
  void aDailyDagWhoseTasksRetryWithBackoff() {
    DagCommands dag = defaults();
    assertEquals("kgrag_reindex", dag.root.path("dag_id").asText());
    assertEquals("@daily", dag.root.path("schedule").asText());
    assertEquals(Boolean.FALSE, dag.root.path("catchup").asBoolean(true), "a daily re-index must not backfill");
    assertEquals(1, dag.root.path("max_active_runs").asInt(), "two runs at once would both write the warehouse");
    assertTrue(dag.root.path("doc_md").asText("").contains("kgrag_reindex"), "the DAG has a doc_md");
    for (JsonNode t : dag.root.path("tasks")) {
      String id = t.path("task_id").asText();
      assertEquals("kgrag", t.path("owner").asText(), id);
      assertTrue(t.path("retries").asInt() >= 1, id + " retries");
      assertTrue(t.path("retry_exponential_backoff").asBoolean(), id + " backs off");
      if (t.path("operator").asText().equals(DagCommands.SPARK_SUBMIT)) {
        assertEquals("spark_default", t.path("conn_id").asText(), id);
      }
    }
  }

  @Test
  void everyParamHasADefaultADescriptionAndARowInTheReadme() throws IOException {
    DagCommands dag = defaults();
    Path readme = DagCommands.dagsDir().resolve("README.md");
    List<String> lines = Files.readAllLines(readme);
    assertTrue(dag.root.path("params").size() >= 8, "the settings are params: " + dag.root.path("params"));
    dag.root.path("params").fields().forEachRemaining(e -> {
      String name = e.getKey();
      JsonNode p = e.getValue();
      assertTrue(p.has("default") && !p.get("default").isNull(), "param " + name + " has no default");
      assertTrue(p.path("description").asText("").length() > 10, "param " + name + " has no description");
      assertTrue(p.path("schema").has("type"), "param " + name + " has no type");
      String row = lines.stream().filter(l -> l.startsWith("| `" + name + "` |")).findFirst()
          .orElseThrow(() -> new AssertionError(readme + ": no row for param " + name));
      JsonNode d = p.get("default");
      String shown = d.isTextual() ? (d.asText().isEmpty() ? "(empty" : "`" + d.asText() + "`") : "`" + d + "`";
      assertTrue(row.contains("| " + shown), readme + ": the row of param " + name + " does not give its default " + shown + ": " + row);
    });
  }

  @Test
  void theQaTasksRunOnlyWhenARunAsksForThem() {
    DagCommands off = defaults();
    assertEquals(List.of(), off.byId().get("choose_qa").follows(), "by default the branch skips every QA task");
    DagCommands on = DagCommands.load(tmp, DagCommands.dagFile(), DagCommandsTest.QA_ON);
    assertEquals(List.of("qa_sgrag", "qa_qafd"), on.byId().get("choose_qa").follows());
    DagCommands qaOffMethodsSet = DagCommands.load(tmp, DagCommands.dagFile(), Map.of("qa_methods", List.of("sgrag")));
    assertEquals(List.of(), qaOffMethodsSet.byId().get("choose_qa").follows(), "qa_methods alone does not switch the QA run on");
  }

  @Test
  void aRunsConfReachesEveryTask() {
    Map<String, Object> conf = Map.of(
        "warehouse", "s3a://bucket/kg", "incoming", "s3a://bucket/in", "input_format", "ntriples", "application_jar", "/jobs/kgrag.jar",
        "jars", "/jobs/a.jar,/jobs/b.jar", "properties_file", "", "run_qa", true, "qa_methods", List.of("srag"), "questions",
        "s3a://bucket/q.jsonl", "qa_dataset", "nightly");
    DagCommands dag = DagCommands.rendered(tmp, conf);
    List<String> problems = DagCommandsValidator.validate(dag);
    assertTrue(problems.isEmpty(), String.join("\n", problems));
    for (JsonNode t : dag.root.path("tasks")) {
      if (!t.path("operator").asText().equals(DagCommands.SPARK_SUBMIT)) {
        continue;
      }
      String id = t.path("task_id").asText();
      String args = t.path("application_args").toString();
      assertTrue(args.contains("\"--warehouse\",\"s3a://bucket/kg\""), id + ": " + args);
      assertEquals("/jobs/kgrag.jar", t.path("application").asText(), id);
      assertEquals("/jobs/a.jar,/jobs/b.jar", t.path("jars").asText(), id);
      assertEquals("", t.path("properties_file").asText(), id);
      if (id.equals("ingest")) {
        assertTrue(args.contains("\"--input\",\"s3a://bucket/in/2025-01-02\",\"--format\",\"ntriples\""), args);
      }
      if (id.startsWith("qa_")) {
        assertTrue(args.contains("\"--questions\",\"s3a://bucket/q.jsonl\",\"--dataset\",\"nightly\""), args);
      }
    }
    assertEquals(List.of("qa_srag"), dag.byId().get("choose_qa").follows());
  }

  @Test
  void aConfOutsideTheParamsSchemaIsRefused() {
    Assumptions.assumeTrue(defaults().root.path("schemas_checked").asBoolean(false),
        "SKIPPED: python3 has no jsonschema, so the params' schemas are not checked (pip install jsonschema to run this check)");
    DagCommands.Result r = DagCommands.importDag(tmp, DagCommands.dagFile(), Map.of("qa_methods", List.of("sgrg")));
    assertTrue(r.code() != 0, "a run with an unknown QA method was accepted: " + r.out());
    assertTrue(r.err().contains("param qa_methods: invalid value ['sgrg']"), r.err());
    r = DagCommands.importDag(tmp, DagCommands.dagFile(), Map.of("run_qa", "yes"));
    assertTrue(r.code() != 0 && r.err().contains("param run_qa"), "run_qa takes true or false: " + r.err() + r.out());
  }

  @Test
  void readingAVariableOrAFileWhileParsedIsRefused() throws IOException {
    Path withVariable = variant("KGRAG_MAIN = ", "from airflow.models import Variable\nWH = Variable.get(\"kgrag_warehouse\")\nKGRAG_MAIN = ");
    DagCommands.Result r = DagCommands.importDag(tmp, withVariable, Map.of());
    assertTrue(r.code() != 0, "a DAG file that reads a Variable when parsed was accepted");
    assertTrue(r.err().contains("reads Airflow Variable kgrag_warehouse when it is parsed"), r.err());

    Path withOpen = variant("KGRAG_MAIN = ", "SETTINGS = open(__file__).read()\nKGRAG_MAIN = ");
    r = DagCommands.importDag(tmp, withOpen, Map.of());
    assertTrue(r.code() != 0, "a DAG file that opens a file when parsed was accepted");
    assertTrue(r.err().contains("the DAG file opens " + withOpen + " when it is parsed"), r.err());
  }

  @Test
  void aMisspelledTemplateNameIsCaught() throws IOException {
    defaults().requireRendered();
    Path typo = variant("\"--format\", \"{{ params.input_format }}\"", "\"--format\", \"{{ params.input_fromat }}\"");
    DagCommands.Result r = DagCommands.importDag(tmp, typo, Map.of());
    assertTrue(r.code() != 0, "a template naming no param was rendered: " + r.out());
    assertTrue(r.err().contains("task ingest: field application_args: UndefinedError") && r.err().contains("input_fromat"), r.err());
  }

  @Test
  void aMisspelledKgragOptionInTheDagFileIsCaught() throws IOException {
    Path typo = variant("\"--format\", \"{{ params.input_format }}\"", "\"--formt\", \"{{ params.input_format }}\"");
    DagCommands dag = DagCommands.load(tmp, typo, Map.of());
    dag.requireRendered();
    String problems = String.join("\n", DagCommandsValidator.validate(dag));
    assertTrue(problems.contains(typo + ": task ingest: kgrag reindex --stages ingest") && problems.contains("--formt"), problems);
  }
}
