package io.kgrag.jobs.airflow;

import io.kgrag.jobs.internal.pipeline.Pipeline;
import io.kgrag.jobs.internal.qa.Methods;
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
import picocli.CommandLine.ParseResult;
import picocli.CommandLine;

/**
 * Checks the commands file of the kgrag_reindex DAG against the real kgrag command line: every task's main
 * class exists and is a picocli command with a {@code main}, its application arguments (placeholders filled
 * with sample values) parse with a {@link CommandLine} built as {@code KgragMain} builds it (parse only,
 * nothing runs) into an existing subcommand, {@code --stages} values are kgrag's stages, upstream ids exist,
 * the graph is acyclic, and the index stages run as one chain in the order of {@link #STAGE_ORDER} before
 * every other task. Returns the problems found, each naming the file and the task.
 */
final class DagCommandsValidator {
  /**
   * The stages the DAG runs, in this order: every stage of the pipeline with an incremental update ({@code kgrag
   * reindex}'s), in the pipeline's order. A DAG file that runs others, misses one or orders them otherwise is
   * rejected: the DAG and the pipeline cannot drift apart.
   */
  static final List<String> STAGE_ORDER = Pipeline.updatable();

  /** Every retrieval method of {@code kgrag qa}: the sample value of a for_each over methods. */
  static final String ALL_METHODS = String.join(",", Methods.all().keySet());

  private DagCommandsValidator() {}

  /** The problems of {@code commands} (empty: valid), checked with optional tasks both off and on. */
  static List<String> validate(DagCommands commands) {
    List<String> problems = new ArrayList<>();
    checkPlaceholders(commands, problems);
    String switchName = commands.root.path("optional_switch").asText(null);
    if (switchName != null && !commands.root.path("variables").has(switchName)) {
      problems.add(commands.file + ": optional_switch '" + switchName + "' is not a variable");
    }
    Map<String, String> off = commands.defaults();
    if (switchName != null) {
      off.put(switchName, "false");
    }
    Map<String, String> on = commands.defaults();
    if (switchName != null) {
      on.put(switchName, "true");
    }
    if (on.containsKey("methods")) {
      on.put("methods", ALL_METHODS);
    }
    for (Map<String, String> values : List.of(off, on)) {
      List<DagCommands.Task> tasks;
      try {
        tasks = commands.expand(values);
      } catch (IllegalArgumentException e) {
        problems.add(e.getMessage());
        return problems;
      }
      for (String p : validateTasks(commands.file, tasks)) {
        if (!problems.contains(p)) {
          problems.add(p);
        }
      }
    }
    return problems;
  }

  /** Every placeholder used is declared ({item} only in for_each tasks); every variable is used. */
  private static void checkPlaceholders(DagCommands commands, List<String> problems) {
    Set<String> declared = commands.declared();
    Map<String, java.util.Set<String>> used = commands.placeholdersUsed();
    Set<String> forEachTasks = new LinkedHashSet<>();
    Set<String> sources = new LinkedHashSet<>();
    for (var t : commands.root.path("tasks")) {
      if (t.has("for_each")) {
        forEachTasks.add("task " + t.path("id").asText());
        sources.add(t.get("for_each").asText());
      }
    }
    for (var e : used.entrySet()) {
      String name = e.getKey();
      if (name.equals(DagCommands.ITEM)) {
        for (String where : e.getValue()) {
          if (!forEachTasks.contains(where)) {
            problems.add(commands.file + ": " + where + ": {item} outside a for_each task");
          }
        }
      } else if (!declared.contains(name)) {
        problems.add(commands.file + ": " + String.join(", ", e.getValue()) + ": unknown placeholder {" + name + "}");
      }
    }
    for (String s : sources) {
      if (!commands.root.path("variables").has(s)) {
        problems.add(commands.file + ": for_each '" + s + "' is not a variable");
      }
    }
    String switchName = commands.root.path("optional_switch").asText("");
    commands.root.path("variables").fieldNames().forEachRemaining(v -> {
      if (!used.containsKey(v) && !sources.contains(v) && !v.equals(switchName)) {
        problems.add(commands.file + ": variable '" + v + "' is never used");
      }
    });
  }

  /** The checks of one expansion of the file. */
  static List<String> validateTasks(String file, List<DagCommands.Task> tasks) {
    List<String> problems = new ArrayList<>();
    Map<String, DagCommands.Task> byId = new LinkedHashMap<>();
    for (DagCommands.Task t : tasks) {
      if (byId.put(t.id(), t) != null) {
        problems.add(file + ": task " + t.id() + ": duplicate task id");
      }
      if (!t.id().matches("[A-Za-z0-9_.-]+")) {
        problems.add(file + ": task " + t.id() + ": not a valid Airflow task id (letters, digits, _ . -)");
      }
    }
    Map<String, ParseResult> parsed = new HashMap<>();
    for (DagCommands.Task t : tasks) {
      ParseResult r = parse(file, t, problems);
      if (r != null) {
        parsed.put(t.id(), r);
      }
      for (String u : t.upstream()) {
        DagCommands.Task up = byId.get(u);
        if (up == null) {
          problems.add(file + ": task " + t.id() + ": upstream task " + u + " does not exist");
        } else if (up.optional() && !t.optional()) {
          problems.add(file + ": task " + t.id() + ": a task that always runs depends on optional task " + u);
        }
      }
    }
    List<String> order = topologicalOrder(byId);
    if (order == null) {
      problems.add(file + ": the tasks' upstream ids form a cycle");
      return problems;
    }
    if (problems.isEmpty()) {
      checkStages(file, tasks, byId, parsed, order, problems);
    }
    return problems;
  }

  /** Parses one task's arguments with the real command line; null (and a problem) when it does not. */
  private static ParseResult parse(String file, DagCommands.Task t, List<String> problems) {
    String where = file + ": task " + t.id() + ": ";
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

  private static List<String> stages(ParseResult sub) {
    if (!sub.hasMatchedOption("--stages")) {
      return List.of();
    }
    List<String> values = sub.matchedOptionValue("--stages", List.of());
    return values;
  }

  /** Task ids in dependency order (file order among ready tasks); null on a cycle. */
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

  /**
   * The index tasks (those with --stages) run one stage each, in {@link #STAGE_ORDER}, each after the one
   * before; every other task runs after all of them; an eval task runs after the qa task of its run id.
   */
  private static void checkStages(
      String file, List<DagCommands.Task> tasks, Map<String, DagCommands.Task> byId, Map<String, ParseResult> parsed, List<String> order,
      List<String> problems) {
    List<String> stageTasks = new ArrayList<>();
    List<String> stageOrder = new ArrayList<>();
    for (String id : order) {
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
    for (DagCommands.Task t : tasks) {
      if (t.command().equals("qa")) {
        qaRuns.put(t.id(), parsed.get(t.id()).subcommand().matchedOptionValue("--run-id", (String) null));
      }
    }
    for (DagCommands.Task t : tasks) {
      if (stageTasks.contains(t.id())) {
        continue;
      }
      Set<String> before = ancestors(t.id(), byId);
      if (!before.containsAll(stageTasks)) {
        List<String> missing = new ArrayList<>(stageTasks);
        missing.removeAll(before);
        problems.add(file + ": task " + t.id() + " does not run after the index tasks " + missing);
      }
      if (t.command().equals("eval")) {
        String runId = parsed.get(t.id()).subcommand().matchedOptionValue("--run-id", (String) null);
        boolean afterItsQa = before.stream().anyMatch(u -> runId != null && runId.equals(qaRuns.get(u)));
        if (!afterItsQa) {
          problems.add(file + ": task " + t.id() + ": eval --run-id " + runId + " is not the run of a qa task it runs after");
        }
      }
    }
  }
}
