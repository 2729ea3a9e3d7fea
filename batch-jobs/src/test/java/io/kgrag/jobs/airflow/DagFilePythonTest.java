package io.kgrag.jobs.airflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.core.type.TypeReference;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * airflow-dags/kgrag_reindex.py with python3: it compiles, and imported against a small fake of Airflow (DAG,
 * Variable, SparkSubmitOperator, {@code >>}) it builds exactly the tasks and dependencies that the commands
 * file gives (expanded here in Java), with and without the optional QA tasks. Without a python3 on PATH (or in
 * /usr/bin, /usr/local/bin) they are skipped, saying so; the commands file itself is still checked against the
 * real command line by {@link DagCommandsTest}, which needs no Python.
 */
class DagFilePythonTest {
  /** The fake airflow package and the harness, as test resources under this package. */
  private static final String FAKE = "fake/";

  private static final List<String> FAKE_FILES = List.of(
      "harness.py",
      "airflow/__init__.py",
      "airflow/models/__init__.py",
      "airflow/providers/__init__.py",
      "airflow/providers/apache/__init__.py",
      "airflow/providers/apache/spark/__init__.py",
      "airflow/providers/apache/spark/operators/__init__.py",
      "airflow/providers/apache/spark/operators/spark_submit.py");

  @TempDir Path tmp;

  record Result(int code, String out, String err) {}

  private static String python() {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      Path p = Path.of(dir.isEmpty() ? "." : dir, "python3");
      if (Files.isExecutable(p)) {
        return p.toString();
      }
    }
    for (String p : List.of("/usr/bin/python3", "/usr/local/bin/python3")) {
      if (Files.isExecutable(Path.of(p))) {
        return p;
      }
    }
    return null;
  }

  /** Skips the calling test, saying why, when there is no python3. */
  private static String requirePython() {
    String p = python();
    Assumptions.assumeTrue(p != null,
        "SKIPPED: no python3 on PATH nor in /usr/bin or /usr/local/bin; airflow-dags/kgrag_reindex.py is not imported (install python3 to run"
            + " this check)");
    return p;
  }

  private Result run(Map<String, String> env, String... args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(requirePython());
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().put("PYTHONDONTWRITEBYTECODE", "1"); // nothing written beside the DAG file
    pb.environment().put("PYTHONPYCACHEPREFIX", tmp.resolve("pycache").toString());
    pb.environment().remove("FAKE_AIRFLOW_VARIABLES");
    pb.environment().putAll(env);
    try {
      Path out = tmp.resolve("out-" + System.nanoTime());
      Path err = tmp.resolve("err-" + System.nanoTime());
      Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
      if (!p.waitFor(120, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        fail("python3 " + String.join(" ", args) + " did not finish in 120 s");
      }
      return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static Path dagFile() {
    return DagCommands.dagsDir().resolve("kgrag_reindex.py");
  }

  /** Writes the fake airflow package and the harness to a temp folder. */
  private Path fakeAirflow() throws IOException {
    Path dir = tmp.resolve("fake");
    for (String f : FAKE_FILES) {
      try (InputStream in = DagFilePythonTest.class.getResourceAsStream(FAKE + f)) {
        if (in == null) {
          throw new IllegalStateException("test resource missing: io/kgrag/jobs/airflow/" + FAKE + f);
        }
        Path target = dir.resolve(f);
        Files.createDirectories(target.getParent());
        Files.write(target, in.readAllBytes());
      }
    }
    return dir;
  }

  /** The DAG the file builds under {@code variables} (Airflow Variable name to value), as the harness prints it. */
  private Map<String, Object> importDag(Path dag, Map<String, String> variables) throws IOException {
    Path fake = fakeAirflow();
    Result r = run(Map.of("PYTHONPATH", fake.toString(), "FAKE_AIRFLOW_VARIABLES", DagCommands.JSON.writeValueAsString(variables)),
        fake.resolve("harness.py").toString(), dag.toString());
    assertEquals(0, r.code(), "importing " + dag + " against the fake airflow failed:\n" + r.err() + r.out());
    return DagCommands.JSON.readValue(r.out(), new TypeReference<Map<String, Object>>() {});
  }

  @Test
  void dagFileCompiles() {
    Result r = run(Map.of(), "-m", "py_compile", dagFile().toString());
    assertEquals(0, r.code(), "python3 -m py_compile " + dagFile() + ":\n" + r.err() + r.out());
  }

  @Test
  void dagBuildsTheCommandsFilesTasksWithDefaults() throws IOException {
    DagCommands commands = DagCommands.read(DagCommands.commandsFile());
    Map<String, Object> dag = importDag(dagFile(), Map.of());
    assertEquals(commands.root.path("dag_id").asText(), dag.get("dag_id"));
    assertEquals(commands.root.path("schedule").asText(), dag.get("schedule"));
    assertEquals(Boolean.FALSE, dag.get("catchup"), "a daily re-index must not backfill");
    // every declared Variable is read, with its documented default
    assertEquals(commands.airflowVariables(), dag.get("variables_requested"));
    assertSameTasks(commands.expand(commands.defaults()), dag);
  }

  @Test
  void dagBuildsTheOptionalQaTasksFromVariables() throws IOException {
    DagCommands commands = DagCommands.read(DagCommands.commandsFile());
    Map<String, String> byVariable = new LinkedHashMap<>();
    Map<String, String> byKey = commands.defaults();
    Map<String, String> set = Map.of(
        "run_qa", "true", "methods", "sgrag,simgrag,qafd", "warehouse", "s3a://bucket/kg", "input", "s3a://bucket/in/{{ ds }}/*.nt",
        "input_format", "ntriples", "jars", "", "properties_file", "", "spark_conn_id", "spark_yarn", "dataset", "nightly");
    commands.root.path("variables").fields().forEachRemaining(e -> {
      if (set.containsKey(e.getKey())) {
        byVariable.put(e.getValue().path("variable").asText(), set.get(e.getKey()));
        byKey.put(e.getKey(), set.get(e.getKey()));
      }
    });
    assertEquals(set.size(), byVariable.size(), "a sample variable is not in the commands file: " + set.keySet());
    Map<String, Object> dag = importDag(dagFile(), byVariable);
    List<DagCommands.Task> expected = commands.expand(byKey);
    assertEquals(6 + 2 * 3, expected.size());
    assertSameTasks(expected, dag);
    assertTrue(DagCommandsValidator.validateTasks(commands.file, expected).isEmpty(), DagCommandsValidator.validateTasks(commands.file, expected).toString());
  }

  @Test
  void dagRejectsABrokenCommandsFileNamingIt() throws IOException {
    // the DAG file beside a variant of the commands file whose eval task names a qa task that does not exist
    Path dir = tmp.resolve("dags");
    Files.createDirectories(dir);
    Files.copy(dagFile(), dir.resolve("kgrag_reindex.py"));
    DagCommands broken = DagCommands.read(DagCommands.commandsFile()).copy();
    for (var t : broken.root.path("tasks")) {
      if (t.path("id").asText().startsWith("eval")) {
        ((com.fasterxml.jackson.databind.node.ObjectNode) t).putArray("upstream").add("qa_{item}_x");
      }
    }
    DagCommands.JSON.writeValue(dir.resolve("kgrag_reindex.commands.json").toFile(), broken.root);
    Path fake = fakeAirflow();
    Result r = run(Map.of("PYTHONPATH", fake.toString(), "FAKE_AIRFLOW_VARIABLES", "{\"kgrag_run_qa\": \"true\"}"),
        fake.resolve("harness.py").toString(), dir.resolve("kgrag_reindex.py").toString());
    assertTrue(r.code() != 0, "the DAG accepted a broken commands file: " + r.out());
    assertTrue(r.err().contains("kgrag_reindex.commands.json: task eval_sgrag: upstream task qa_sgrag_x does not exist"), r.err());
  }

  private static void assertSameTasks(List<DagCommands.Task> expected, Map<String, Object> dag) {
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> tasks = (List<Map<String, Object>>) dag.get("tasks");
    Map<String, Map<String, Object>> actual = new LinkedHashMap<>();
    for (Map<String, Object> t : tasks) {
      actual.put((String) t.get("task_id"), t);
    }
    assertEquals(expected.stream().map(DagCommands.Task::id).toList(), List.copyOf(actual.keySet()), "the DAG's task ids");
    for (DagCommands.Task t : expected) {
      assertEquals(t.asOperator(), actual.get(t.id()), "task " + t.id() + " of the DAG differs from the commands file");
    }
  }
}
