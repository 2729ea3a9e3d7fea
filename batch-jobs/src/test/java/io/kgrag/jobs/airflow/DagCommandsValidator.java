package io.kgrag.jobs.airflow;

import io.kgrag.jobs.internal.pipeline.Pipeline;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * Checks the tasks of the kgrag_reindex DAG, as the DAG file builds and renders them ({@link DagCommands}),
 * against the real kgrag command line: every SparkSubmitOperator's main class exists and is a picocli command
 * with a {@code main}, its rendered application arguments parse with a {@link CommandLine} built as {@code
 * KgragMain} builds it (parse only, nothing runs) into an existing subcommand, {@code --stages} values are
 * kgrag's stages, every task retries, upstream ids exist, the graph is acyclic, the index stages run as one chain
 * in the order of {@link #STAGE_ORDER} that no branch can skip, and every other kgrag task runs after them behind
 * a branch (optional at run time), an eval after the qa of its run id. Returns the problems found, each naming
 * the file and the task.
 */
final class DagCommandsValidator {
  /**
   * The stages the DAG runs, in this order: every stage of the pipeline with an incremental update ({@code kgrag
   * reindex}'s), in the pipeline's order. A DAG file that runs others, misses one or orders them otherwise is
   * rejected: the DAG and the pipeline cannot drift apart.
   */
  static final List<String> STAGE_ORDER = Pipeline.updatable();

  private DagCommandsValidator() {}

  /** The problems of {@code dag} (empty: valid). */
  static List<String> validate(DagCommands dag) {
    String file = dag.file;
    List<DagCommands.Task> tasks = dag.tasks();
    Map<String, DagCommands.Task> byId = dag.byId();
    List<String> problems = new ArrayList<>();
    if (tasks.isEmpty()) {
      problems.add(file + ": the DAG has no tasks");
      return problems;
    }
    Map<String, ParseResult> parsed = new HashMap<>();
    for (DagCommands.Task t : tasks) {
      if (!t.id().matches("[A-Za-z0-9_.-]+")) {
        problems.add(file + ": task " + t.id() + ": not a valid Airflow task id (letters, digits, _ . -)");
      }
      if (t.retries() < 1) {
        problems.add(file + ": task " + t.id() + ": retries " + t.retries() + "; a task of a daily DAG must retry (default_args retries)");
      }
      for (String u : t.upstream()) {
        if (!byId.containsKey(u)) {
          problems.add(file + ": task " + t.id() + ": upstream task " + u + " does not exist");
        }
      }
      if (t.sparkSubmit()) {
        ParseResult r = parse(file, t, problems);
        if (r != null) {
          parsed.put(t.id(), r);
        }
      }
      if (t.branch() && t.follows() != null) {
        for (String f : t.follows()) {
          DagCommands.Task next = byId.get(f);
          if (next == null || !next.upstream().contains(t.id())) {
            problems.add(file + ": task " + t.id() + ": the branch follows " + f + ", which is not a task directly after it");
          }
        }
      }
    }
    if (!problems.isEmpty()) {
      return problems;
    }
    List<String> order = topologicalOrder(byId);
    if (order == null) {
      problems.add(file + ": the tasks' upstream ids form a cycle");
      return problems;
    }
    checkStages(file, byId, parsed, order, problems);
    return problems;
  }

  /** Parses one task's arguments with the real command line; null (and a problem) when it does not. */
  private static ParseResult parse(String file, DagCommands.Task t, List<String> problems) {
    String where = file + ": task " + t.id() + ": ";
    if (t.javaClass() == null) {
      problems.add(where + "no java_class: a kgrag task runs io.kgrag.jobs.KgragMain");
      return null;
    }
    Class<?> main;
    try {
      main = Class.forName(t.javaClass());
    } catch (ClassNotFoundException | LinkageError e) {
      problems.add(where + "main class " + t.javaClass() + " not found");
      return null;
    }
    try {
      Method m = main.getMethod("main", String[].class);
      if (!Modifier.isStatic(m.getModifiers())) {
        problems.add(where + "main class " + t.javaClass() + " has no static main(String[])");
        return null;
      }
    } catch (NoSuchMethodException e) {
      problems.add(where + "main class " + t.javaClass() + " has no main(String[])");
      return null;
    }
    if (!main.isAnnotationPresent(CommandLine.Command.class)) {
      problems.add(where + "main class " + t.javaClass() + " is not a picocli command");
      return null;
    }
    CommandLine cli;
    try {
      cli = new CommandLine(main.getDeclaredConstructor().newInstance()); // as KgragMain.execute builds it
    } catch (ReflectiveOperationException e) {
      problems.add(where + "cannot create " + t.javaClass() + ": " + e);
      return null;
    }
    if (t.command() == null) {
      problems.add(where + "no application_args: the first one is the kgrag command");
      return null;
    }
    if (!cli.getSubcommands().containsKey(t.command())) {
      problems.add(where + "'" + t.command() + "' is not a command of " + t.javaClass() + " (commands: " + String.join(", ", cli.getSubcommands().keySet()) + ")");
      return null;
    }
    ParseResult result;
    try {
      result = cli.parseArgs(t.applicationArgs().toArray(String[]::new));
    } catch (CommandLine.ParameterException e) {
      problems.add(where + "kgrag " + String.join(" ", t.applicationArgs()) + ": " + e.getMessage());
      return null;
    }
    ParseResult sub = result.subcommand();
    if (sub == null || !sub.commandSpec().name().equals(t.command())) {
      problems.add(where + "arguments do not select command " + t.command());
      return null;
    }
    if (sub.isUsageHelpRequested() || sub.isVersionHelpRequested() || result.isUsageHelpRequested() || result.isVersionHelpRequested()) {
      problems.add(where + "asks for --help or --version instead of running");
      return null;
    }
    if (sub.subcommand() != null) {
      problems.add(where + "runs a nested command " + sub.subcommand().commandSpec().name());
      return null;
    }
    List<String> known = t.command().equals("reindex") ? Pipeline.updatable() : Pipeline.names();
    for (String stage : stages(sub)) {
      if (!known.contains(stage)) {
        problems.add(where + "--stages " + stage + " is not a stage of kgrag " + t.command() + " (" + String.join(", ", known) + ")");
      }
    }
    return result;
  }

  static List<String> stages(ParseResult sub) {
    if (!sub.hasMatchedOption("--stages")) {
      return List.of();
    }
    return sub.matchedOptionValue("--stages", List.of());
  }

  /** Task ids in dependency order (creation order among ready tasks); null on a cycle. */
  private static List<String> topologicalOrder(Map<String, DagCommands.Task> byId) {
    Map<String, Integer> pending = new LinkedHashMap<>();
    for (DagCommands.Task t : byId.values()) {
      pending.put(t.id(), (int) t.upstream().stream().filter(byId::containsKey).distinct().count());
    }
    List<String> order = new ArrayList<>();
    Deque<String> ready = new ArrayDeque<>();
    pending.forEach((id, n) -> {
      if (n == 0) {
        ready.add(id);
      }
    });
    while (!ready.isEmpty()) {
      String id = ready.poll();
      order.add(id);
      for (DagCommands.Task t : byId.values()) {
        if (t.upstream().contains(id) && pending.merge(t.id(), -1, Integer::sum) == 0) {
          ready.add(t.id());
        }
      }
    }
    return order.size() == byId.size() ? order : null;
  }

  private static Set<String> ancestors(String id, Map<String, DagCommands.Task> byId) {
    Set<String> seen = new LinkedHashSet<>();
    Deque<String> todo = new ArrayDeque<>(byId.get(id).upstream());
    while (!todo.isEmpty()) {
      String u = todo.pop();
      if (seen.add(u)) {
        todo.addAll(byId.get(u).upstream());
      }
    }
    return seen;
  }

  private static List<String> branchesBefore(Set<String> ancestors, Map<String, DagCommands.Task> byId) {
    return ancestors.stream().filter(a -> byId.get(a).branch()).toList();
  }

  /**
   * The index tasks (those with --stages) run one stage each, in {@link #STAGE_ORDER}, each after the one
   * before, and no branch runs before them; every other kgrag task runs after all of them and after a branch;
   * an eval task runs after the qa task of its run id.
   */
  private static void checkStages(
      String file, Map<String, DagCommands.Task> byId, Map<String, ParseResult> parsed, List<String> order, List<String> problems) {
    List<String> stageTasks = new ArrayList<>();
    List<String> stageOrder = new ArrayList<>();
    for (String id : order) {
      if (!parsed.containsKey(id)) {
        continue;
      }
      List<String> s = stages(parsed.get(id).subcommand());
      if (s.isEmpty()) {
        continue;
      }
      if (s.size() != 1) {
        problems.add(file + ": task " + id + ": runs " + s.size() + " stages " + s + "; the DAG runs one stage per task");
        continue;
      }
      stageTasks.add(id);
      stageOrder.add(s.get(0));
      List<String> branches = branchesBefore(ancestors(id, byId), byId);
      if (!branches.isEmpty()) {
        problems.add(file + ": task " + id + " (stage " + s.get(0) + ") runs after the branch " + branches + ", so a run could skip it");
      }
    }
    if (!stageOrder.equals(STAGE_ORDER)) {
      problems.add(file + ": the index stages run in the order " + stageOrder + " (tasks " + stageTasks + "); expected " + STAGE_ORDER);
      return;
    }
    for (int i = 1; i < stageTasks.size(); i++) {
      if (!ancestors(stageTasks.get(i), byId).contains(stageTasks.get(i - 1))) {
        problems.add(file + ": task " + stageTasks.get(i) + " (stage " + stageOrder.get(i) + ") does not run after task " + stageTasks.get(i - 1)
            + " (stage " + stageOrder.get(i - 1) + ")");
      }
    }
    Map<String, String> qaRuns = new HashMap<>();
    parsed.forEach((id, r) -> {
      if (r.subcommand().commandSpec().name().equals("qa")) {
        qaRuns.put(id, r.subcommand().matchedOptionValue("--run-id", (String) null));
      }
    });
    for (String id : order) {
      if (!parsed.containsKey(id) || stageTasks.contains(id)) {
        continue;
      }
      Set<String> before = ancestors(id, byId);
      if (!before.containsAll(stageTasks)) {
        List<String> missing = new ArrayList<>(stageTasks);
        missing.removeAll(before);
        problems.add(file + ": task " + id + " does not run after the index tasks " + missing);
      }
      if (branchesBefore(before, byId).isEmpty()) {
        problems.add(file + ": task " + id + " runs after no branch on the params, so every run runs it; the QA tasks are optional");
      }
      ParseResult sub = parsed.get(id).subcommand();
      if (sub.commandSpec().name().equals("eval")) {
        String runId = sub.matchedOptionValue("--run-id", (String) null);
        boolean afterItsQa = before.stream().anyMatch(u -> runId != null && runId.equals(qaRuns.get(u)));
        if (!afterItsQa) {
          problems.add(file + ": task " + id + ": eval --run-id " + runId + " is not the run of a qa task it runs after");
        }
      }
    }
  }
}
