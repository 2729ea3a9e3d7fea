package io.kgrag.core.qafd.sql;

import io.kgrag.core.qafd.CsrGraph;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A database schema as a graph for QAFD-RAG's text-to-SQL setting (PAPER Appendix A2.2: "converts each
 * database into a knowledge graph"). The paper does not say how the graph is built; this is the choice:
 *
 * <ul>
 *   <li><b>Nodes</b>: one per table (named as given, e.g. {@code kgrag.answers}) and one per column, named
 *       {@code table.column} ({@code kgrag.answers.run_id}), the "table.column" nodes of Prompt 5. Tables
 *       first, in the order given, each followed by nothing; then the columns, table by table, in schema
 *       order. Node ids are those positions.
 *   <li><b>Edges</b> (undirected): table–column membership; and column–column between two tables for
 *       shared keys, as {@link Keys} lists them: every pair of columns in different tables whose name is a
 *       key name ({@code run_id} joins answers, evidence, runs, …), plus each explicit alias pair
 *       ({@code kgrag.evidence.src} – {@code kgrag.entities.entity_id}). An alias naming a table or column
 *       the schema does not hold is skipped (the key list covers a whole catalog; a warehouse may lack
 *       tables); {@link #skippedAliases()} lists them. Sharing a name alone (two {@code description}
 *       columns) makes no edge.
 *   <li><b>Node text</b> for embedding: a column is {@code "<table> <column>: <type> <description>"} with
 *       the table's database prefix dropped and underscores as spaces ({@code "answers run id: string"});
 *       a table is {@code "<table> table: <description>"}.
 * </ul>
 *
 * <p>Immutable and deterministic: the same tables and keys give the same ids, edges and texts.
 */
public final class SchemaGraph {
  /** A column: its name, SQL type and an optional description (null or blank for none). */
  public record Column(String name, String type, String description) {
    public Column {
      requireName(name, "column");
      type = type == null ? "" : type.strip();
      description = description == null ? "" : description.strip();
    }
  }

  /** A table: its name as SQL refers to it ({@code kgrag.answers}), a description, its columns. */
  public record Table(String name, String description, List<Column> columns) {
    public Table {
      requireName(name, "table");
      description = description == null ? "" : description.strip();
      columns = List.copyOf(columns);
    }
  }

  /** What a node stands for. */
  public enum Kind {
    TABLE,
    COLUMN
  }

  /**
   * A node: a table ({@code column} null) or one of its columns.
   *
   * @param id its index in the graph
   * @param name {@code table} or {@code table.column}
   */
  public record Node(int id, Kind kind, String name, String table, String column, String type, String description) {}

  /** A pair of columns that join although their names differ: {@code from} holds values of {@code to}. */
  public record Alias(String from, String to) {
    public Alias {
      requireName(from, "alias column");
      requireName(to, "alias column");
    }
  }

  /**
   * Which columns join tables: column names that are keys wherever they occur, and explicit aliases. Read
   * from text with {@link #parse}: one rule a line, {@code key <column name>} or {@code alias
   * <table.column> <table.column>}; {@code #} starts a comment; blank lines are ignored.
   */
  public record Keys(Set<String> names, List<Alias> aliases) {
    public Keys {
      names = Collections.unmodifiableSet(new LinkedHashSet<>(names));
      aliases = List.copyOf(aliases);
    }

    public static final Keys NONE = new Keys(Set.of(), List.of());

    /**
     * @throws IllegalArgumentException naming the line that is not a rule
     */
    public static Keys parse(List<String> lines) {
      Set<String> names = new LinkedHashSet<>();
      List<Alias> aliases = new ArrayList<>();
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i);
        int hash = line.indexOf('#');
        String rule = (hash >= 0 ? line.substring(0, hash) : line).strip();
        if (rule.isEmpty()) {
          continue;
        }
        String[] w = rule.split("\\s+");
        if (w[0].equals("key") && w.length == 2) {
          names.add(w[1]);
        } else if (w[0].equals("alias") && w.length == 3) {
          aliases.add(new Alias(w[1], w[2]));
        } else {
          throw new IllegalArgumentException(
              "line " + (i + 1) + " of the key list is not 'key <column>' or 'alias <table.column> <table.column>': " + line.strip());
        }
      }
      return new Keys(names, aliases);
    }
  }

  private final List<Table> tables;
  private final List<Node> nodes;
  private final Map<String, Integer> byName;
  private final List<int[]> edges;
  private final List<int[]> joins;
  private final List<Alias> skipped;
  private final CsrGraph graph;

  private SchemaGraph(List<Table> tables, List<Node> nodes, Map<String, Integer> byName, List<int[]> edges, List<int[]> joins, List<Alias> skipped) {
    this.tables = tables;
    this.nodes = nodes;
    this.byName = byName;
    this.edges = edges;
    this.joins = joins;
    this.skipped = skipped;
    this.graph = CsrGraph.of(nodes.size(), edges.toArray(new int[0][]));
  }

  /**
   * The graph of {@code tables} with the joins {@code keys} describe.
   *
   * @throws IllegalArgumentException for a repeated table name or a repeated column within a table
   */
  public static SchemaGraph of(List<Table> tables, Keys keys) {
    Objects.requireNonNull(keys, "keys");
    List<Node> nodes = new ArrayList<>();
    Map<String, Integer> byName = new HashMap<>();
    for (Table t : tables) {
      if (byName.putIfAbsent(t.name(), nodes.size()) != null) {
        throw new IllegalArgumentException("table " + t.name() + " is given twice");
      }
      nodes.add(new Node(nodes.size(), Kind.TABLE, t.name(), t.name(), null, null, t.description()));
    }
    List<int[]> edges = new ArrayList<>();
    for (Table t : tables) {
      int tableNode = byName.get(t.name());
      for (Column c : t.columns()) {
        String name = t.name() + "." + c.name();
        if (byName.putIfAbsent(name, nodes.size()) != null) {
          throw new IllegalArgumentException("column " + name + " is given twice");
        }
        nodes.add(new Node(nodes.size(), Kind.COLUMN, name, t.name(), c.name(), c.type(), c.description()));
        edges.add(new int[] {tableNode, nodes.size() - 1});
      }
    }
    List<int[]> joins = new ArrayList<>();
    for (int a = 0; a < nodes.size(); a++) {
      Node na = nodes.get(a);
      if (na.kind() != Kind.COLUMN || !keys.names().contains(na.column())) {
        continue;
      }
      for (int b = a + 1; b < nodes.size(); b++) {
        Node nb = nodes.get(b);
        if (nb.kind() == Kind.COLUMN && nb.column().equals(na.column()) && !nb.table().equals(na.table())) {
          joins.add(new int[] {a, b});
        }
      }
    }
    List<Alias> skipped = new ArrayList<>();
    for (Alias al : keys.aliases()) {
      Integer from = byName.get(al.from());
      Integer to = byName.get(al.to());
      if (from == null || to == null || nodes.get(from).kind() != Kind.COLUMN || nodes.get(to).kind() != Kind.COLUMN) {
        skipped.add(al);
        continue;
      }
      int[] e = {Math.min(from, to), Math.max(from, to)};
      if (from.intValue() != to.intValue() && joins.stream().noneMatch(j -> j[0] == e[0] && j[1] == e[1])) {
        joins.add(e);
      }
    }
    edges.addAll(joins);
    return new SchemaGraph(List.copyOf(tables), List.copyOf(nodes), byName, List.copyOf(edges), List.copyOf(joins), List.copyOf(skipped));
  }

  /** The graph the diffusion walks (ids are node ids). */
  public CsrGraph graph() {
    return graph;
  }

  public List<Table> tables() {
    return tables;
  }

  public List<Node> nodes() {
    return nodes;
  }

  public int nodeCount() {
    return nodes.size();
  }

  public Node node(int id) {
    return nodes.get(id);
  }

  /** The node named exactly {@code name} (case included), or -1. */
  public int indexOf(String name) {
    Integer i = byName.get(name);
    return i == null ? -1 : i;
  }

  /** Every edge, membership edges first, as {a, b}. */
  public List<int[]> edges() {
    return edges;
  }

  /** The column–column join edges (shared keys, then aliases), as {a, b} with a &lt; b. */
  public List<int[]> joins() {
    return joins;
  }

  /** Aliases of the key list that name something this schema does not hold. */
  public List<Alias> skippedAliases() {
    return skipped;
  }

  /** The text embedded for node {@code id} (see the class comment). */
  public String text(int id) {
    Node n = nodes.get(id);
    String table = readable(shortName(n.table()));
    if (n.kind() == Kind.TABLE) {
      return (table + " table: " + n.description()).strip();
    }
    return (table + " " + readable(n.column()) + ": " + n.type() + " " + n.description()).strip();
  }

  /** Every node's text, by id. */
  public List<String> texts() {
    List<String> out = new ArrayList<>(nodes.size());
    for (int i = 0; i < nodes.size(); i++) {
      out.add(text(i));
    }
    return out;
  }

  /**
   * The schema as text for a prompt ("a database schema summary (graph) in text format", Prompt 5): each
   * table with its description, then its {@code table.column} nodes with their types, then the join
   * edges as {@code a = b}.
   */
  public String summary() {
    StringBuilder sb = new StringBuilder();
    for (Table t : tables) {
      sb.append("Table ").append(t.name());
      if (!t.description().isEmpty()) {
        sb.append(" -- ").append(t.description());
      }
      sb.append('\n');
      for (Column c : t.columns()) {
        sb.append("  ").append(t.name()).append('.').append(c.name());
        if (!c.type().isEmpty()) {
          sb.append(" (").append(c.type()).append(')');
        }
        if (!c.description().isEmpty()) {
          sb.append(" -- ").append(c.description());
        }
        sb.append('\n');
      }
    }
    if (!joins.isEmpty()) {
      sb.append("Join edges (columns holding the same key):\n");
      for (int[] j : joins) {
        sb.append("  ").append(nodes.get(j[0]).name()).append(" = ").append(nodes.get(j[1]).name()).append('\n');
      }
    }
    return sb.toString().stripTrailing();
  }

  private static String shortName(String table) {
    int dot = table.lastIndexOf('.');
    return dot >= 0 ? table.substring(dot + 1) : table;
  }

  private static String readable(String s) {
    return s.replace('_', ' ').toLowerCase(Locale.ROOT);
  }

  private static void requireName(String s, String what) {
    if (s == null || s.isBlank() || !s.equals(s.strip())) {
      throw new IllegalArgumentException("a " + what + " name must be non-blank without surrounding spaces, got '" + s + "'");
    }
  }
}
