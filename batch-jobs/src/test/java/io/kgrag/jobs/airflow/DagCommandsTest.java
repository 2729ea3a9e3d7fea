package io.kgrag.jobs.airflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kgrag.jobs.internal.pipeline.Pipeline;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * airflow-dags/kgrag_reindex.commands.json against the real kgrag command line, and variants of it that the
 * same validator must reject (a wrong class, option, command, stage, order, upstream id or placeholder).
 */
class DagCommandsTest {
  private static DagCommands real() {
    return DagCommands.read(DagCommands.commandsFile());
  }

  @Test
  void theCommandsFileIsValid() {
    List<String> problems = DagCommandsValidator.validate(real());
    assertTrue(problems.isEmpty(), "problems in the commands file:\n" + String.join("\n", problems));
  }

  @Test
  void theDagRunsEveryReindexStageOfThePipelineInThePipelinesOrder() {
    // the stages come from the pipeline (the one place they are named and ordered), not from a list of the test's
    assertEquals(Pipeline.updatable(), DagCommandsValidator.STAGE_ORDER);
    DagCommands c = real();
    Map<String, String> values = c.defaults();
    values.put("run_qa", "false");
    List<String> stages = new java.util.ArrayList<>();
    for (DagCommands.Task t : c.expand(values)) {
      int i = t.applicationArgs().indexOf("--stages");
      if (i >= 0) {
        stages.add(t.applicationArgs().get(i + 1));
      }
    }
    assertEquals(Pipeline.updatable(), stages, "the DAG's index tasks against the pipeline");
    for (String s : Pipeline.updatable()) {
      assertTrue(Pipeline.names().contains(s));
    }
  }

  @Test
  void expandsToTheIndexChainAndOptionalQaPerMethod() {
    DagCommands c = real();
    Map<String, String> values = c.defaults();
    values.put("run_qa", "false");
    List<DagCommands.Task> plain = c.expand(values);
    assertEquals(List.of("ingest", "schema", "embed", "gnn", "paths", "path_index"), plain.stream().map(DagCommands.Task::id).toList());
    for (DagCommands.Task t : plain) {
      assertEquals("io.kgrag.jobs.KgragMain", t.javaClass(), t.id());
      assertEquals("reindex", t.applicationArgs().get(0), t.id());
      assertTrue(t.applicationArgs().contains(values.get("warehouse")), t.id() + ": " + t.applicationArgs());
    }
    assertTrue(plain.get(0).applicationArgs().containsAll(List.of("--input", values.get("input"), "--format", values.get("input_format"))),
        plain.get(0).applicationArgs().toString());

    values.put("run_qa", "TRUE");
    values.put("methods", " sgrag , qafd ");
    List<DagCommands.Task> all = c.expand(values);
    assertEquals(List.of("ingest", "schema", "embed", "gnn", "paths", "path_index", "qa_sgrag", "qa_qafd", "eval_sgrag", "eval_qafd"),
        all.stream().map(DagCommands.Task::id).toList());
    DagCommands.Task qa = all.get(7);
    assertEquals(List.of("path_index"), qa.upstream());
    assertTrue(qa.applicationArgs().containsAll(List.of("qa", "--method", "qafd", "--questions", values.get("questions"))), qa.applicationArgs().toString());
    assertEquals(List.of("qa_qafd"), all.get(9).upstream());
    assertTrue(DagCommandsValidator.validateTasks(c.file, all).isEmpty(), DagCommandsValidator.validateTasks(c.file, all).toString());
  }

  @Test
  void swappingTheCommandIsOneFieldPerTask() {
    // the 'command' field is the only place a task names its subcommand: the args never repeat it
    for (var t : real().root.path("tasks")) {
      String command = t.path("command").asText();
      assertTrue(!command.isEmpty(), t.toString());
      for (var a : t.path("args")) {
        assertTrue(!a.asText().equals(command), "task " + t.path("id").asText() + " repeats its command in args");
      }
    }
  }

  @Test
  void readmeDocumentsEveryVariableWithItsDefault() throws java.io.IOException {
    java.nio.file.Path readme = DagCommands.dagsDir().resolve("README.md");
    List<String> lines = java.nio.file.Files.readAllLines(readme);
    real().airflowVariables().forEach((variable, def) -> {
      String row = lines.stream().filter(l -> l.startsWith("| `" + variable + "` |")).findFirst()
          .orElseThrow(() -> new AssertionError(readme + ": no row for Variable " + variable));
      String shown = def.isEmpty() ? "(empty" : "`" + def + "`";
      assertTrue(row.contains("| " + shown), readme + ": the row of " + variable + " does not give its default " + shown + ": " + row);
    });
  }

  // ---- variants the validator must reject, each with a message naming the file and the task

  private static String rejected(Consumer<ObjectNode> change, String... expected) {
    DagCommands c = real().copy();
    change.accept(c.root);
    List<String> problems = DagCommandsValidator.validate(c);
    String all = String.join("\n", problems);
    assertTrue(!problems.isEmpty(), "the validator accepted a broken variant");
    for (String e : expected) {
      assertTrue(all.contains(e), "expected '" + e + "' in:\n" + all);
    }
    assertTrue(all.contains(c.file), "problems must name the file: " + all);
    return all;
  }

  private static ObjectNode task(ObjectNode root, String id) {
    for (var t : root.path("tasks")) {
      if (t.path("id").asText().equals(id)) {
        return (ObjectNode) t;
      }
    }
    throw new AssertionError("no task " + id + " in the commands file");
  }

  private static void replaceArg(ObjectNode root, String id, String from, String to) {
    ArrayNode args = (ArrayNode) task(root, id).get("args");
    for (int i = 0; i < args.size(); i++) {
      if (args.get(i).asText().equals(from)) {
        args.set(i, args.textNode(to));
        return;
      }
    }
    throw new AssertionError("task " + id + " has no argument " + from);
  }

  @Test
  void rejectsAMisspelledOption() {
    rejected(r -> replaceArg(r, "gnn", "--warehouse", "--warehous"), "task gnn", "--warehous");
    rejected(r -> replaceArg(r, "qa_{item}", "--questions", "--question"), "task qa_sgrag", "--question");
  }

  @Test
  void rejectsAWrongMainClass() {
    rejected(r -> r.put("main_class", "io.kgrag.jobs.KgragMian"), "task ingest", "main class io.kgrag.jobs.KgragMian not found");
    rejected(r -> task(r, "embed").put("main_class", "io.kgrag.jobs.conf.KgragConf"), "task embed", "io.kgrag.jobs.conf.KgragConf has no main");
  }

  @Test
  void rejectsAnUnknownCommand() {
    rejected(r -> task(r, "paths").put("command", "indx"), "task paths", "'indx' is not a command of io.kgrag.jobs.KgragMain");
  }

  @Test
  void rejectsAMissingRequiredOption() {
    rejected(r -> {
      ArrayNode args = (ArrayNode) task(r, "qa_{item}").get("args");
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
    rejected(r -> replaceArg(r, "path_index", "path-index", "pathindex"), "task path_index", "--stages pathindex is not a stage of kgrag reindex");
  }

  @Test
  void rejectsStagesOutOfOrder() {
    rejected(r -> {
      replaceArg(r, "embed", "embed", "gnn");
      replaceArg(r, "gnn", "gnn", "embed");
    }, "order [ingest, schema, gnn, embed, paths, path-index]");
    rejected(r -> task(r, "paths").putArray("upstream").add("embed"), "task paths (stage paths) does not run after task gnn");
    rejected(r -> task(r, "qa_{item}").putArray("upstream").add("paths"), "task qa_sgrag does not run after the index tasks [path_index]");
    rejected(r -> task(r, "eval_{item}").putArray("upstream").add("path_index"), "task eval_sgrag: eval --run-id");
  }

  @Test
  void rejectsMissingUpstreamAndCycles() {
    rejected(r -> task(r, "gnn").putArray("upstream").add("embedd"), "task gnn: upstream task embedd does not exist");
    rejected(r -> task(r, "ingest").putArray("upstream").add("path_index"), "form a cycle");
    rejected(r -> task(r, "gnn").putArray("upstream").add("qa_sgrag"), "task gnn: a task that always runs depends on optional task qa_sgrag");
  }

  @Test
  void rejectsUnknownPlaceholdersAndUnusedVariables() {
    rejected(r -> replaceArg(r, "embed", "{warehouse}", "{warehose}"), "task embed: unknown placeholder {warehose}");
    rejected(r -> replaceArg(r, "embed", "{warehouse}", "{item}"), "task embed: {item} outside a for_each task");
    rejected(r -> ((ObjectNode) r.get("variables")).putObject("spare").put("variable", "kgrag_spare").put("default", "x"), "variable 'spare' is never used");
  }
}
