package io.kgrag.jobs.airflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The tasks of the kgrag_reindex Airflow DAG as the DAG file itself builds them: {@code airflow-dags/kgrag_reindex.py}
 * imported by python3 against a small fake of Airflow (test resources under {@code fake/}), whose harness
 * renders every templated field with the params (their defaults, or a run's {@code --conf}) and prints the DAG
 * as JSON. The input of {@link DagCommandsValidator}; there is no second description of the tasks to drift.
 */
final class DagCommands {
  static final ObjectMapper JSON = new ObjectMapper();

  /** The fake airflow package and the harness, as test resources under this package. */
  private static final List<String> FAKE_FILES = List.of(
      "harness.py",
      "airflow/__init__.py",
      "airflow/models/__init__.py",
      "airflow/models/param.py",
      "airflow/operators/__init__.py",
      "airflow/operators/python.py",
      "airflow/providers/__init__.py",
      "airflow/providers/apache/__init__.py",
      "airflow/providers/apache/spark/__init__.py",
      "airflow/providers/apache/spark/operators/__init__.py",
      "airflow/providers/apache/spark/operators/spark_submit.py");

  static final String SPARK_SUBMIT = "SparkSubmitOperator";

  /** The operators that choose what runs after them (the QA tasks are optional at run time behind one). */
  static final List<String> BRANCHES = List.of("BranchPythonOperator", "ShortCircuitOperator");

  /** The file the tasks came from (named in every problem). */
  final String file;

  /** The harness's JSON: the DAG's attributes, params and tasks. */
  final ObjectNode root;

  DagCommands(String file, ObjectNode root) {
    this.file = file;
    this.root = root;
  }

  /** python3's output for a run. */
  record Result(int code, String out, String err) {}

  /** One task of the DAG, its templated fields rendered. */
  record Task(
      String id,
      String operator,
      List<String> upstream,
      String javaClass,
      List<String> applicationArgs,
      int retries,
      List<String> follows) {
    boolean sparkSubmit() {
      return SPARK_SUBMIT.equals(operator);
    }

    boolean branch() {
      return BRANCHES.contains(operator);
    }

    /** The kgrag command (the first application argument); null for a task that runs none. */
    String command() {
      return applicationArgs.isEmpty() ? null : applicationArgs.get(0);
    }
  }

  /** The project's airflow-dags folder (tests run in batch-jobs/). */
  static Path dagsDir() {
    Path dir = Paths.get(System.getProperty("user.dir")).resolve("..").resolve("airflow-dags").normalize();
    if (!Files.isDirectory(dir)) {
      throw new IllegalStateException("airflow-dags/ not found at " + dir + " (tests run in the batch-jobs module folder)");
    }
    return dir;
  }

  static Path dagFile() {
    return dagsDir().resolve("kgrag_reindex.py");
  }

  /** python3 on PATH, in /usr/bin or /usr/local/bin; null when there is none. */
  static String python() {
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

  /** python3, or the calling test skipped saying why. */
  static String requirePython() {
    String p = python();
    Assumptions.assumeTrue(p != null,
        "SKIPPED: no python3 on PATH nor in /usr/bin or /usr/local/bin; airflow-dags/kgrag_reindex.py is not imported and its tasks'"
            + " arguments are not checked against the kgrag command line (install python3 to run this check)");
    return p;
  }

  /** Runs python3 with {@code args} in {@code tmp} (bytecode kept out of the DAG folder). */
  static Result python(Path tmp, Map<String, String> env, String... args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(requirePython());
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().put("PYTHONDONTWRITEBYTECODE", "1");
    pb.environment().put("PYTHONPYCACHEPREFIX", tmp.resolve("pycache").toString());
    pb.environment().remove("PYTHONPATH");
    pb.environment().putAll(env);
    try {
      Path out = Files.createTempFile(tmp, "out-", ".txt");
      Path err = Files.createTempFile(tmp, "err-", ".txt");
      Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
      if (!p.waitFor(120, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException("python3 " + String.join(" ", args) + " did not finish in 120 s");
      }
      return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Writes the fake airflow package and the harness under {@code tmp}; returns its folder. */
  static Path fakeAirflow(Path tmp) {
    Path dir = tmp.resolve("fake");
    try {
      for (String f : FAKE_FILES) {
        try (InputStream in = DagCommands.class.getResourceAsStream("fake/" + f)) {
          if (in == null) {
            throw new IllegalStateException("test resource missing: io/kgrag/jobs/airflow/fake/" + f);
          }
          Path target = dir.resolve(f);
          Files.createDirectories(target.getParent());
          Files.write(target, in.readAllBytes());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return dir;
  }

  /** Imports {@code dag} against the fake Airflow with the run's {@code conf} (as {@code --conf}); the harness's result. */
  static Result importDag(Path tmp, Path dag, Map<String, ?> conf) {
    Path fake = fakeAirflow(tmp);
    try {
      return python(tmp, Map.of("PYTHONPATH", fake.toString()), fake.resolve("harness.py").toString(), dag.toString(), JSON.writeValueAsString(conf));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The DAG {@code dag} builds for a run with {@code conf}.
   *
   * @throws AssertionError with python's error output when the import fails
   */
  static DagCommands load(Path tmp, Path dag, Map<String, ?> conf) {
    Result r = importDag(tmp, dag, conf);
    if (r.code() != 0) {
      throw new AssertionError("importing " + dag + " against the fake airflow failed:\n" + r.err() + r.out());
    }
    try {
      return new DagCommands(dag.toString(), (ObjectNode) JSON.readTree(r.out()));
    } catch (IOException e) {
      throw new UncheckedIOException(dag + ": the harness printed no JSON: " + r.out(), e);
    }
  }

  /** The real DAG file for a run with {@code conf}, its templated fields rendered (the calling test skipped, saying so, without jinja2). */
  static DagCommands rendered(Path tmp, Map<String, ?> conf) {
    DagCommands dag = load(tmp, dagFile(), conf);
    dag.requireRendered();
    return dag;
  }

  /** Skips the calling test, saying why, when the harness could not render the templates. */
  void requireRendered() {
    Assumptions.assumeTrue(root.path("rendered").asBoolean(false),
        "SKIPPED: python3 has no jinja2, so the templated arguments of " + file + " are not rendered nor checked against the kgrag command"
            + " line (pip install jinja2 to run this check)");
  }

  /** A deep copy, for variants. */
  DagCommands copy() {
    return new DagCommands(file, root.deepCopy());
  }

  /** The task {@code id}'s JSON, for variants. */
  ObjectNode taskNode(String id) {
    for (JsonNode t : root.path("tasks")) {
      if (t.path("task_id").asText().equals(id)) {
        return (ObjectNode) t;
      }
    }
    throw new AssertionError(file + ": no task " + id);
  }

  /** The tasks, in the order the file creates them. */
  List<Task> tasks() {
    List<Task> tasks = new ArrayList<>();
    for (JsonNode t : root.path("tasks")) {
      tasks.add(new Task(
          t.path("task_id").asText(),
          t.path("operator").asText(),
          strings(t.path("upstream")),
          t.path("java_class").asText(null),
          strings(t.path("application_args")),
          t.path("retries").asInt(0),
          follows(t)));
    }
    return tasks;
  }

  /** The tasks by id. */
  Map<String, Task> byId() {
    Map<String, Task> m = new LinkedHashMap<>();
    for (Task t : tasks()) {
      m.put(t.id(), t);
    }
    return m;
  }

  /** A branch's answer (a task id, a list of them, or None: none); null for a task that is no branch. */
  private static List<String> follows(JsonNode task) {
    if (!task.has("follows")) {
      return null;
    }
    JsonNode f = task.get("follows");
    return f.isTextual() ? List.of(f.asText()) : strings(f);
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    for (JsonNode n : array) {
      out.add(n.asText());
    }
    return out;
  }
}
