package io.kgrag.jobs.airflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The commands file of the kgrag_reindex Airflow DAG ({@code airflow-dags/kgrag_reindex.commands.json}), read
 * with Jackson and expanded into tasks the way {@code kgrag_reindex.py} expands it: the Java side of the
 * comparison with the DAG file, and the input of {@link DagCommandsValidator}.
 */
final class DagCommands {
  static final ObjectMapper JSON = new ObjectMapper();

  /** {name}; Jinja's {{ ... }} (with its spaces) never matches, as in the DAG file. */
  static final Pattern PLACEHOLDER = Pattern.compile("\\{([a-z][a-z0-9_]*)\\}");

  /** The for_each item's placeholder. */
  static final String ITEM = "item";

  /** The operator settings the DAG reads from the file, besides conf. */
  static final List<String> OPERATOR_KEYS = List.of("application", "jars", "properties_file", "conn_id");

  final String file;
  final ObjectNode root;

  DagCommands(String file, ObjectNode root) {
    this.file = file;
    this.root = root;
  }

  /** The project's airflow-dags folder (tests run in batch-jobs/). */
  static Path dagsDir() {
    Path dir = Paths.get(System.getProperty("user.dir")).resolve("..").resolve("airflow-dags").normalize();
    if (!Files.isDirectory(dir)) {
      throw new IllegalStateException("airflow-dags/ not found at " + dir + " (tests run in the batch-jobs module folder)");
    }
    return dir;
  }

  static Path commandsFile() {
    return dagsDir().resolve("kgrag_reindex.commands.json");
  }

  static DagCommands read(Path path) {
    try {
      JsonNode node = JSON.readTree(path.toFile());
      if (!(node instanceof ObjectNode)) {
        throw new IllegalArgumentException(path + ": not a JSON object");
      }
      return new DagCommands(path.toString(), (ObjectNode) node);
    } catch (IOException e) {
      throw new UncheckedIOException(path + ": cannot read: " + e.getMessage(), e);
    }
  }

  /** A deep copy, for variants of the file. */
  DagCommands copy() {
    return new DagCommands(file, root.deepCopy());
  }

  /** Each variable's value when no Airflow Variable is set: its documented default. */
  Map<String, String> defaults() {
    Map<String, String> values = new LinkedHashMap<>();
    root.path("variables").fields().forEachRemaining(e -> values.put(e.getKey(), e.getValue().path("default").asText()));
    return values;
  }

  /** Each variable's Airflow Variable name with its default. */
  Map<String, String> airflowVariables() {
    Map<String, String> vars = new LinkedHashMap<>();
    root.path("variables").fields().forEachRemaining(e -> vars.put(e.getValue().path("variable").asText(), e.getValue().path("default").asText()));
    return vars;
  }

  /** One task of the expanded DAG. */
  record Task(
      String id,
      List<String> upstream,
      boolean optional,
      String javaClass,
      String command,
      List<String> applicationArgs,
      Map<String, String> operator,
      Map<String, String> conf,
      String name) {
    /** As the DAG harness prints a SparkSubmitOperator. */
    Map<String, Object> asOperator() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("task_id", id);
      m.put("upstream", upstream.stream().sorted().toList());
      m.put("java_class", javaClass);
      m.put("application", operator.get("application"));
      m.put("application_args", applicationArgs);
      m.put("jars", operator.get("jars"));
      m.put("properties_file", operator.get("properties_file"));
      m.put("conn_id", operator.get("conn_id") == null ? "spark_default" : operator.get("conn_id"));
      m.put("conf", conf);
      m.put("name", name);
      return m;
    }
  }

  /**
   * The tasks for the given placeholder values (variables by their key in the file): optional tasks only when
   * the switch variable is true, for_each tasks once per comma-separated item.
   *
   * @throws IllegalArgumentException naming the file and task for an unknown placeholder or a missing field
   */
  List<Task> expand(Map<String, String> variableValues) {
    Map<String, String> values = new LinkedHashMap<>(variableValues);
    root.path("constants").fields().forEachRemaining(e -> values.put(e.getKey(), e.getValue().asText()));
    String switchName = root.path("optional_switch").asText(null);
    boolean withOptional =
        switchName != null && List.of("true", "1", "yes", "on").contains(values.getOrDefault(switchName, "").strip().toLowerCase(Locale.ROOT));
    JsonNode operator = root.path("operator");
    String mainClass = root.path("main_class").asText(null);
    List<Task> tasks = new ArrayList<>();
    JsonNode list = root.path("tasks");
    if (!list.isArray() || list.isEmpty()) {
      throw new IllegalArgumentException(file + ": no \"tasks\" array");
    }
    for (JsonNode t : list) {
      String rawId = text(t, "id", "a task");
      boolean optional = t.path("optional").asBoolean(false);
      if (optional && !withOptional) {
        continue;
      }
      String each = t.path("for_each").asText(null);
      List<String> items = new ArrayList<>();
      if (each == null) {
        items.add(null);
      } else {
        if (!values.containsKey(each)) {
          throw new IllegalArgumentException(file + ": task " + rawId + ": for_each names no variable: " + each);
        }
        for (String s : values.get(each).split(",")) {
          if (!s.isBlank()) {
            items.add(s.strip());
          }
        }
      }
      for (String item : items) {
        Map<String, String> local = new LinkedHashMap<>(values);
        if (item != null) {
          local.put(ITEM, item);
        }
        String id = fill(rawId, local, "task " + rawId);
        String where = "task " + id;
        List<String> upstream = new ArrayList<>();
        for (JsonNode u : t.path("upstream")) {
          upstream.add(fill(u.asText(), local, where + ": upstream"));
        }
        String command = text(t, "command", where);
        List<String> args = new ArrayList<>();
        args.add(command);
        if (!t.path("args").isArray()) {
          throw new IllegalArgumentException(file + ": " + where + ": no \"args\" array");
        }
        for (JsonNode a : t.path("args")) {
          args.add(fill(a.asText(), local, where));
        }
        Map<String, String> op = new LinkedHashMap<>();
        for (String key : OPERATOR_KEYS) {
          if (operator.has(key)) {
            String v = fill(operator.get(key).asText(), local, where + ": operator " + key);
            op.put(key, v.isEmpty() ? null : v);
          }
        }
        Map<String, String> conf = new LinkedHashMap<>();
        operator.path("conf").fields().forEachRemaining(e -> conf.put(e.getKey(), fill(e.getValue().asText(), local, where + ": conf")));
        String javaClass = t.has("main_class") ? t.get("main_class").asText() : mainClass;
        if (javaClass == null) {
          throw new IllegalArgumentException(file + ": " + where + ": no main_class");
        }
        tasks.add(new Task(id, upstream, optional, javaClass, command, args, op, conf, root.path("dag_id").asText() + "." + id));
      }
    }
    return tasks;
  }

  /** {@code text} with each {name} replaced by its value, in one pass. */
  String fill(String text, Map<String, String> values, String where) {
    Matcher m = PLACEHOLDER.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String v = values.get(m.group(1));
      if (v == null) {
        throw new IllegalArgumentException(file + ": " + where + ": unknown placeholder {" + m.group(1) + "} in \"" + text + "\"");
      }
      m.appendReplacement(out, Matcher.quoteReplacement(v));
    }
    m.appendTail(out);
    return out.toString();
  }

  /** Every placeholder name the tasks and the operator section use, with where. */
  Map<String, Set<String>> placeholdersUsed() {
    Map<String, Set<String>> used = new LinkedHashMap<>();
    for (JsonNode t : root.path("tasks")) {
      String where = "task " + t.path("id").asText();
      List<String> texts = new ArrayList<>();
      texts.add(t.path("id").asText());
      t.path("upstream").forEach(u -> texts.add(u.asText()));
      t.path("args").forEach(a -> texts.add(a.asText()));
      for (String s : texts) {
        Matcher m = PLACEHOLDER.matcher(s);
        while (m.find()) {
          used.computeIfAbsent(m.group(1), k -> new LinkedHashSet<>()).add(where);
        }
      }
    }
    List<String> op = new ArrayList<>();
    root.path("operator").fields().forEachRemaining(e -> {
      if (e.getValue().isTextual()) {
        op.add(e.getValue().asText());
      }
    });
    root.path("operator").path("conf").forEach(v -> op.add(v.asText()));
    for (String s : op) {
      Matcher m = PLACEHOLDER.matcher(s);
      while (m.find()) {
        used.computeIfAbsent(m.group(1), k -> new LinkedHashSet<>()).add("operator");
      }
    }
    return used;
  }

  Set<String> declared() {
    Set<String> names = new HashSet<>();
    root.path("variables").fieldNames().forEachRemaining(names::add);
    root.path("constants").fieldNames().forEachRemaining(names::add);
    return names;
  }

  private String text(JsonNode node, String field, String where) {
    JsonNode v = node.get(field);
    if (v == null || !v.isTextual() || v.asText().isBlank()) {
      throw new IllegalArgumentException(file + ": " + where + ": missing \"" + field + "\"");
    }
    return v.asText();
  }
}
