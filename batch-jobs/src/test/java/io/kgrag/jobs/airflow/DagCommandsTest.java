package io.kgrag.jobs.airflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import io.kgrag.jobs.internal.pipeline.Pipeline;
import io.kgrag.jobs.internal.qa.Methods;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tasks airflow-dags/kgrag_reindex.py builds (imported against the fake Airflow, templates rendered with the
 * params' defaults, {@link DagCommands}) against the real kgrag command line, and variants of them that the same
 * validator must reject (a wrong class, option, command, stage, order, upstream id, branch or retry setting).
 * Skipped, saying so, without python3 (or jinja2).
 */
class DagCommandsTest {
  /** A run with the QA regression switched on: its branch follows these. */
  static final Map<String, Object> QA_ON = Map.of("run_qa", true, "qa_methods", List.of("sgrag", "qafd"));

  /** One import per config for the whole class (python3 is the slow part); each test changes its own copy. */
  @TempDir static Path tmp;

  private static final Map<Map<String, ?>, DagCommands> IMPORTED = new HashMap<>();

  private static DagCommands rendered(Map<String, ?> conf) {
    return IMPORTED.computeIfAbsent(conf, c -> DagCommands.rendered(tmp, c)).copy();
  }

  private static DagCommands real() {
    return rendered(Map.of());
  }

  private static String problems(List<String> problems) {
    return String.join("\n", problems);
  }

  @Test
  void theDagIsValidWithTheDefaultsAndWithTheQaRunOn() {
    for (Map<String, ?> conf : List.of(Map.<String, Object>of(), QA_ON)) {
      List<String> problems = DagCommandsValidator.validate(rendered(conf));
      assertTrue(problems.isEmpty(), "problems in the DAG with --conf " + conf + ":\n" + problems(problems));
    }
  }

  @Test
  void theDagRunsEveryReindexStageOfThePipelineInThePipelinesOrder() {
    // the stages come from the pipeline (the one place they are named and ordered), not from a list of the test's
    assertEquals(Pipeline.updatable(), DagCommandsValidator.STAGE_ORDER);
    List<String> stages = new ArrayList<>();
    for (DagCommands.Task t : real().tasks()) {
      int i = t.applicationArgs().indexOf("--stages");
      if (i >= 0) {
        stages.add(t.applicationArgs().get(i + 1));
      }
    }
    assertEquals(Pipeline.updatable(), stages, "the DAG's index tasks against the pipeline");
  }

  @Test
  void theIndexChainThenABranchThenAQaAndEvalTaskPerRetrievalMethod() {
    DagCommands dag = real();
    List<DagCommands.Task> tasks = dag.tasks();
    assertEquals(List.of("ingest", "schema", "embed", "gnn", "paths", "path_index", "choose_qa"), tasks.stream().limit(7).map(DagCommands.Task::id).toList());
    for (DagCommands.Task t : tasks) {
      if (t.sparkSubmit()) {
        assertEquals("io.kgrag.jobs.KgragMain", t.javaClass(), t.id());
        assertTrue(t.applicationArgs().containsAll(List.of("--warehouse", "hdfs:///kgrag/warehouse")), t.id() + ": " + t.applicationArgs());
      }
    }
    assertTrue(tasks.get(0).applicationArgs().containsAll(List.of("--input", "hdfs:///kgrag/incoming/2025-01-02", "--run-id", "kgrag-20250102T000000")),
        "ingest reads the run's day of the incoming folder: " + tasks.get(0).applicationArgs());
    assertEquals(List.of("path_index"), tasks.get(6).upstream());
    // one qa task per retrieval method kgrag has, each directly after the branch, its eval directly after it
    List<String> methods = new ArrayList<>();
    for (DagCommands.Task t : tasks) {
      if ("qa".equals(t.command())) {
        String method = t.applicationArgs().get(t.applicationArgs().indexOf("--method") + 1);
        methods.add(method);
        assertEquals("qa_" + method, t.id());
        assertEquals(List.of("choose_qa"), t.upstream(), t.id());
        assertEquals(List.of("qa_" + method), dag.byId().get("eval_" + method).upstream(), "eval_" + method);
      }
    }
    // kgrag's own methods; one from another jar on the classpath (the tests' toy) has no tasks in the DAG
    List<String> builtIn = Methods.all().entrySet().stream()
        .filter(e -> e.getValue().getClass().getName().startsWith("io.kgrag.jobs.internal.method.")).map(Map.Entry::getKey).toList();
    assertEquals(builtIn, methods.stream().sorted().toList(), "the DAG's QA methods against kgrag's retrieval methods");
  }

  // ---- variants the validator must reject, each with a message naming the file and the task

  private String rejected(Map<String, ?> conf, Consumer<DagCommands> change, String... expected) {
    DagCommands dag = rendered(conf);
    change.accept(dag);
    List<String> problems = DagCommandsValidator.validate(dag);
    String all = problems(problems);
    assertTrue(!problems.isEmpty(), "the validator accepted a broken variant");
    for (String e : expected) {
      assertTrue(all.contains(e), "expected '" + e + "' in:\n" + all);
    }
    assertTrue(all.contains(dag.file), "problems must name the file: " + all);
    return all;
  }

  private String rejected(Consumer<DagCommands> change, String... expected) {
    return rejected(Map.of(), change, expected);
  }

  private static void replaceArg(DagCommands dag, String id, String from, String to) {
    ArrayNode args = (ArrayNode) dag.taskNode(id).get("application_args");
    for (int i = 0; i < args.size(); i++) {
      if (args.get(i).asText().equals(from)) {
        args.set(i, args.textNode(to));
        return;
      }
    }
    throw new AssertionError("task " + id + " has no argument " + from);
  }

  private static void upstream(DagCommands dag, String id, String... ids) {
    ArrayNode up = dag.taskNode(id).putArray("upstream");
    for (String u : ids) {
      up.add(u);
    }
  }

  @Test
  void rejectsAMisspelledOption() {
    rejected(d -> replaceArg(d, "gnn", "--warehouse", "--warehous"), "task gnn", "--warehous");
    rejected(d -> replaceArg(d, "qa_sgrag", "--questions", "--question"), "task qa_sgrag", "--question");
  }

  @Test
  void rejectsAWrongMainClass() {
    rejected(d -> d.taskNode("ingest").put("java_class", "io.kgrag.jobs.KgragMian"), "task ingest", "main class io.kgrag.jobs.KgragMian not found");
    rejected(d -> d.taskNode("embed").put("java_class", "io.kgrag.jobs.conf.KgragConf"), "task embed", "io.kgrag.jobs.conf.KgragConf has no main");
  }

  @Test
  void rejectsAnUnknownCommand() {
    rejected(d -> replaceArg(d, "paths", "reindex", "indx"), "task paths", "'indx' is not a command of io.kgrag.jobs.KgragMain");
  }

  @Test
  void rejectsAMissingRequiredOption() {
    rejected(d -> {
      ArrayNode args = (ArrayNode) d.taskNode("qa_sgrag").get("application_args");
      for (int i = args.size() - 1; i >= 0; i--) {
        if (args.get(i).asText().equals("--dataset")) {
          args.remove(i + 1);
          args.remove(i);
        }
      }
    }, "task qa_sgrag", "--dataset");
  }

  @Test
  void rejectsAnUnknownStage() {
    rejected(d -> replaceArg(d, "path_index", "path-index", "pathindex"), "task path_index", "--stages pathindex is not a stage of kgrag reindex");
  }

  @Test
  void rejectsStagesOutOfOrder() {
    rejected(d -> {
      replaceArg(d, "embed", "embed", "gnn");
      replaceArg(d, "gnn", "gnn", "embed");
    }, "order [ingest, schema, gnn, embed, paths, path-index]");
    rejected(d -> upstream(d, "paths", "embed"), "task paths (stage paths) does not run after task gnn");
    rejected(d -> upstream(d, "choose_qa", "paths"), "task qa_sgrag does not run after the index tasks [path_index]");
    rejected(d -> upstream(d, "eval_sgrag", "qa_qafd"), "task eval_sgrag: eval --run-id kgrag-20250102T000000-qa-sgrag is not the run of a qa task");
  }

  @Test
  void rejectsMissingUpstreamAndCycles() {
    rejected(d -> upstream(d, "gnn", "embedd"), "task gnn: upstream task embedd does not exist");
    rejected(d -> upstream(d, "ingest", "path_index"), "form a cycle");
  }

  @Test
  void rejectsAnIndexTaskABranchCouldSkipAndAQaTaskNoBranchCould() {
    rejected(d -> {
      upstream(d, "choose_qa");
      upstream(d, "ingest", "choose_qa");
    }, "task ingest (stage ingest) runs after the branch [choose_qa], so a run could skip it");
    rejected(d -> upstream(d, "qa_srag", "path_index"), "task qa_srag runs after no branch on the params");
  }

  @Test
  void rejectsABranchThatFollowsATaskNotAfterIt() {
    rejected(QA_ON, d -> d.taskNode("choose_qa").putArray("follows").add("qa_sgrg"), "task choose_qa: the branch follows qa_sgrg");
    rejected(QA_ON, d -> d.taskNode("choose_qa").putArray("follows").add("eval_sgrag"), "task choose_qa: the branch follows eval_sgrag");
  }

  @Test
  void rejectsATaskWithoutRetries() {
    rejected(d -> d.taskNode("embed").put("retries", 0), "task embed: retries 0");
  }
}
