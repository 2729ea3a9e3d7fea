package io.kgrag.core.qa.export;

import io.kgrag.core.graph.Labels;
import io.kgrag.core.qa.EvidenceEdge;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The evidence subgraph of one answered question, written as GraphML or Graphviz DOT.
 *
 * <p>Nodes are the ends of the evidence edges, one per entity id (the first non-blank label seen names
 * it); edges are directed {@code src -> dst}, repeated (src, relation, dst) triples written once, in input
 * order. The answer node(s) are marked: in GraphML with the boolean node attribute {@code answer}
 * ({@code true}; default {@code false}), in DOT filled and bold. The question and the answer text are
 * attributes of the graph (GraphML keys {@code question}, {@code answer_text}; the DOT graph label).
 *
 * <p>Escaping: GraphML text is XML-escaped ({@code & < > " '}), and characters XML 1.0 does not allow
 * (control characters other than tab, newline and carriage return; unpaired surrogates; U+FFFE, U+FFFF)
 * become U+FFFD, so any label yields a well-formed document. DOT strings are double-quoted with {@code \}
 * and {@code "} backslash-escaped, line breaks written as {@code \n}, tabs as spaces, and other control
 * characters replaced by U+FFFD.
 */
public final class EvidenceGraphWriter {
  /** GraphML's namespace. */
  public static final String GRAPHML_NS = "http://graphml.graphdrawing.org/xmlns";

  private final String question;
  private final String answer;
  private final Map<Long, String> nodes = new LinkedHashMap<>();
  private final List<EvidenceEdge> edges = new ArrayList<>();
  private final Set<Long> answerIds;

  /**
   * @param question the question text (may be null)
   * @param answer the answer text (may be null)
   * @param answerIds the entity ids to mark as the answer; ids that are not an end of any edge are ignored
   * @param evidence the evidence edges, in the order to write them
   */
  public EvidenceGraphWriter(String question, String answer, Collection<Long> answerIds, List<EvidenceEdge> evidence) {
    this.question = question;
    this.answer = answer;
    Set<String> seen = new LinkedHashSet<>();
    for (EvidenceEdge e : evidence) {
      node(e.srcId(), e.srcLabel());
      node(e.dstId(), e.dstLabel());
      if (seen.add(e.srcId() + "\u0000" + e.relation() + "\u0000" + e.dstId())) {
        edges.add(e);
      }
    }
    Set<Long> marked = new LinkedHashSet<>();
    for (Long id : answerIds) {
      if (id != null && nodes.containsKey(id)) {
        marked.add(id);
      }
    }
    this.answerIds = Collections.unmodifiableSet(marked);
  }

  /**
   * A writer that marks the answer node(s) found by {@link #answerNodes}.
   *
   * @param answerEntityId the answer's entity id when known (answers.ranked[0].entity_id), else null
   */
  public static EvidenceGraphWriter of(String question, String answer, Long answerEntityId, List<EvidenceEdge> evidence) {
    return new EvidenceGraphWriter(question, answer, answerNodes(answer, answerEntityId, evidence), evidence);
  }

  /**
   * The nodes that are the answer: the node with {@code answerEntityId} when it is an end of some edge;
   * otherwise every node whose label equals {@code answer} in {@link Labels#normalize normalised} form;
   * empty when neither matches.
   */
  public static Set<Long> answerNodes(String answer, Long answerEntityId, List<EvidenceEdge> evidence) {
    Set<Long> out = new LinkedHashSet<>();
    if (answerEntityId != null) {
      for (EvidenceEdge e : evidence) {
        if (e.srcId() == answerEntityId || e.dstId() == answerEntityId) {
          out.add(answerEntityId);
          return out;
        }
      }
    }
    String want = Labels.normalize(answer);
    if (!want.isEmpty()) {
      for (EvidenceEdge e : evidence) {
        if (Labels.normalize(e.srcLabel()).equals(want)) {
          out.add(e.srcId());
        }
        if (Labels.normalize(e.dstLabel()).equals(want)) {
          out.add(e.dstId());
        }
      }
    }
    return out;
  }

  private void node(long id, String label) {
    String current = nodes.get(id);
    if (current == null && label != null && !label.isBlank()) {
      nodes.put(id, label);
    } else if (!nodes.containsKey(id)) {
      nodes.put(id, null);
    }
  }

  /** Distinct nodes (entity ids). */
  public int nodeCount() {
    return nodes.size();
  }

  /** Distinct edges. */
  public int edgeCount() {
    return edges.size();
  }

  /** The marked answer nodes. */
  public Set<Long> answerIds() {
    return answerIds;
  }

  /** The graph as a GraphML document (UTF-8 declared). */
  public String graphml() {
    StringBuilder b = new StringBuilder();
    b.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    b.append("<graphml xmlns=\"").append(GRAPHML_NS).append("\"\n");
    b.append("    xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"\n");
    b.append("    xsi:schemaLocation=\"").append(GRAPHML_NS).append(' ').append(GRAPHML_NS).append("/1.0/graphml.xsd\">\n");
    b.append("  <key id=\"question\" for=\"graph\" attr.name=\"question\" attr.type=\"string\"/>\n");
    b.append("  <key id=\"answer_text\" for=\"graph\" attr.name=\"answer_text\" attr.type=\"string\"/>\n");
    b.append("  <key id=\"label\" for=\"node\" attr.name=\"label\" attr.type=\"string\"/>\n");
    b.append("  <key id=\"entity_id\" for=\"node\" attr.name=\"entity_id\" attr.type=\"long\"/>\n");
    b.append("  <key id=\"answer\" for=\"node\" attr.name=\"answer\" attr.type=\"boolean\"><default>false</default></key>\n");
    b.append("  <key id=\"relation\" for=\"edge\" attr.name=\"relation\" attr.type=\"string\"/>\n");
    b.append("  <graph id=\"evidence\" edgedefault=\"directed\">\n");
    if (question != null) {
      b.append("    <data key=\"question\">").append(xml(question)).append("</data>\n");
    }
    if (answer != null) {
      b.append("    <data key=\"answer_text\">").append(xml(answer)).append("</data>\n");
    }
    for (Map.Entry<Long, String> n : nodes.entrySet()) {
      b.append("    <node id=\"").append(nodeId(n.getKey())).append("\">");
      if (n.getValue() != null) {
        b.append("<data key=\"label\">").append(xml(n.getValue())).append("</data>");
      }
      b.append("<data key=\"entity_id\">").append(n.getKey()).append("</data>");
      if (answerIds.contains(n.getKey())) {
        b.append("<data key=\"answer\">true</data>");
      }
      b.append("</node>\n");
    }
    int i = 0;
    for (EvidenceEdge e : edges) {
      b.append("    <edge id=\"e").append(i++).append("\" source=\"").append(nodeId(e.srcId()))
          .append("\" target=\"").append(nodeId(e.dstId())).append("\">");
      b.append("<data key=\"relation\">").append(xml(e.relation())).append("</data></edge>\n");
    }
    b.append("  </graph>\n</graphml>\n");
    return b.toString();
  }

  /** The graph in Graphviz DOT ({@code dot -Tsvg q1.dot > q1.svg}). */
  public String dot() {
    StringBuilder b = new StringBuilder();
    b.append("digraph evidence {\n");
    StringBuilder title = new StringBuilder();
    if (question != null) {
      title.append("Q: ").append(question);
    }
    if (answer != null) {
      title.append(title.length() == 0 ? "" : "\n").append("A: ").append(answer);
    }
    if (title.length() > 0) {
      b.append("  label=").append(dotString(title.toString())).append(";\n");
      b.append("  labelloc=\"t\";\n");
    }
    b.append("  node [shape=\"box\", style=\"rounded\"];\n");
    for (Map.Entry<Long, String> n : nodes.entrySet()) {
      String label = n.getValue() != null ? n.getValue() : "#" + n.getKey();
      b.append("  ").append(dotString(nodeId(n.getKey()))).append(" [label=").append(dotString(label));
      if (answerIds.contains(n.getKey())) {
        b.append(", style=\"rounded,filled,bold\", fillcolor=\"gold\", penwidth=\"2\"");
      }
      b.append("];\n");
    }
    for (EvidenceEdge e : edges) {
      b.append("  ").append(dotString(nodeId(e.srcId()))).append(" -> ").append(dotString(nodeId(e.dstId())))
          .append(" [label=").append(dotString(e.relation())).append("];\n");
    }
    b.append("}\n");
    return b.toString();
  }

  /** Writes {@link #graphml()} to {@code file} (UTF-8), creating its folder. */
  public void writeGraphml(Path file) {
    write(file, graphml());
  }

  /** Writes {@link #dot()} to {@code file} (UTF-8), creating its folder. */
  public void writeDot(Path file) {
    write(file, dot());
  }

  private static void write(Path file, String text) {
    try {
      Path dir = file.toAbsolutePath().getParent();
      if (dir != null) {
        Files.createDirectories(dir);
      }
      try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
        w.write(text);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  private static String nodeId(long id) {
    return "n" + id;
  }

  /** {@code s} as XML 1.0 character data or attribute value. */
  static String xml(String s) {
    StringBuilder b = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); ) {
      int c = s.codePointAt(i);
      i += Character.charCount(c);
      switch (c) {
        case '&' -> b.append("&amp;");
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&apos;");
        case '\r' -> b.append("&#13;"); // kept: a parser would otherwise turn it into \n
        default -> {
          if (xmlAllowed(c)) {
            b.appendCodePoint(c);
          } else {
            b.append('\uFFFD');
          }
        }
      }
    }
    return b.toString();
  }

  private static boolean xmlAllowed(int c) {
    return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD)
        || (c >= 0x10000 && c <= 0x10FFFF);
  }

  /** {@code s} as a double-quoted DOT string. */
  static String dotString(String s) {
    StringBuilder b = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); ) {
      int c = s.codePointAt(i);
      i += Character.charCount(c);
      if (c == '"' || c == '\\') {
        b.append('\\').appendCodePoint(c);
      } else if (c == '\n') {
        b.append("\\n");
      } else if (c == '\r') {
        // dropped: \r\n is one line break
      } else if (c == '\t') {
        b.append(' ');
      } else if (c < 0x20 || c == 0x7F || (c >= 0xD800 && c <= 0xDFFF)) {
        b.append('\uFFFD');
      } else {
        b.appendCodePoint(c);
      }
    }
    return b.append('"').toString();
  }
}
