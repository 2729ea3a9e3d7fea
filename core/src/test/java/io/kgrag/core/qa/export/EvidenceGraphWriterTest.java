package io.kgrag.core.qa.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.qa.EvidenceEdge;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class EvidenceGraphWriterTest {
  private static final String NS = EvidenceGraphWriter.GRAPHML_NS;
  private static final String NASTY = "Tom & \"Jerry\" <'Show'> \\ back\tslash\u0001\u0000 é 😀";

  private static final List<EvidenceEdge> EDGES =
      List.of(
          new EvidenceEdge(1, "Forrest Gump", "starred_actors", 2, "Tom Hanks"),
          new EvidenceEdge(1, "Forrest Gump", "directed_by", 3, "Robert Zemeckis"),
          new EvidenceEdge(1, "Forrest Gump", "starred_actors", 2, "Tom Hanks"), // repeated edge
          new EvidenceEdge(4, NASTY, "has <tag> & \"quote\"", 2, null), // label of 2 already known
          new EvidenceEdge(-5, null, "in_language", 1, "Forrest Gump")); // negative id, no label

  private static Document parse(String xml) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    return f.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
  }

  /** data key -> text of the element's data children. */
  private static Map<String, String> data(Element e) {
    Map<String, String> out = new HashMap<>();
    NodeList ds = e.getElementsByTagNameNS(NS, "data");
    for (int i = 0; i < ds.getLength(); i++) {
      Element d = (Element) ds.item(i);
      if (d.getParentNode() == e) {
        out.put(d.getAttribute("key"), d.getTextContent());
      }
    }
    return out;
  }

  @Test
  void graphmlParsesBackWithDeduplicatedNodesAndEdgesAndEscapedText() throws Exception {
    EvidenceGraphWriter w = EvidenceGraphWriter.of("Who starred in <Forrest Gump> & \"why\"?", "Tom Hanks", 2L, EDGES);
    assertEquals(5, w.nodeCount());
    assertEquals(4, w.edgeCount());
    Document doc = parse(w.graphml());
    Element root = doc.getDocumentElement();
    assertEquals("graphml", root.getLocalName());
    assertEquals(NS, root.getNamespaceURI());

    Set<String> keys = new java.util.HashSet<>();
    NodeList ks = doc.getElementsByTagNameNS(NS, "key");
    for (int i = 0; i < ks.getLength(); i++) {
      keys.add(((Element) ks.item(i)).getAttribute("id"));
    }
    assertTrue(keys.containsAll(Set.of("label", "relation", "answer", "question", "answer_text")), keys.toString());

    Element graph = (Element) doc.getElementsByTagNameNS(NS, "graph").item(0);
    assertEquals("directed", graph.getAttribute("edgedefault"));
    assertEquals("Who starred in <Forrest Gump> & \"why\"?", data(graph).get("question"));
    assertEquals("Tom Hanks", data(graph).get("answer_text"));

    NodeList nodes = doc.getElementsByTagNameNS(NS, "node");
    assertEquals(5, nodes.getLength());
    Map<String, Map<String, String>> byId = new HashMap<>();
    for (int i = 0; i < nodes.getLength(); i++) {
      Element n = (Element) nodes.item(i);
      byId.put(n.getAttribute("id"), data(n));
    }
    assertEquals("Tom Hanks", byId.get("n2").get("label"));
    assertEquals("true", byId.get("n2").get("answer"));
    assertFalse(byId.get("n1").containsKey("answer")); // default false
    assertEquals("-5", byId.get("n-5").get("entity_id"));
    assertFalse(byId.get("n-5").containsKey("label"));
    // XML specials round-trip; characters XML 1.0 forbids became U+FFFD
    assertEquals("Tom & \"Jerry\" <'Show'> \\ back\tslash\uFFFD\uFFFD é 😀", byId.get("n4").get("label"));

    NodeList edges = doc.getElementsByTagNameNS(NS, "edge");
    assertEquals(4, edges.getLength());
    List<String> relations = new ArrayList<>();
    for (int i = 0; i < edges.getLength(); i++) {
      Element e = (Element) edges.item(i);
      assertTrue(byId.containsKey(e.getAttribute("source")) && byId.containsKey(e.getAttribute("target")));
      relations.add(data(e).get("relation"));
    }
    assertEquals(List.of("starred_actors", "directed_by", "has <tag> & \"quote\"", "in_language"), relations);
  }

  @Test
  void answerNodeIsFoundByEntityIdElseByNormalisedLabel() {
    assertEquals(Set.of(3L), EvidenceGraphWriter.answerNodes("whatever", 3L, EDGES));
    assertEquals(Set.of(2L), EvidenceGraphWriter.answerNodes("tom-hanks", 99L, EDGES)); // id not in the graph
    assertEquals(Set.of(3L), EvidenceGraphWriter.answerNodes("ROBERT ZEMECKIS", null, EDGES));
    assertTrue(EvidenceGraphWriter.answerNodes("nobody", null, EDGES).isEmpty());
    assertTrue(EvidenceGraphWriter.answerNodes(null, null, EDGES).isEmpty());
    assertEquals(Set.of(), new EvidenceGraphWriter("q", "a", List.of(42L), EDGES).answerIds());
  }

  @Test
  void dotQuotesAndEscapesEveryStringAndHighlightsTheAnswer() {
    EvidenceGraphWriter w = EvidenceGraphWriter.of("Who \"starred\"\nin it?", "Tom Hanks", 2L, EDGES);
    String dot = w.dot();
    assertTrue(dot.startsWith("digraph evidence {\n") && dot.endsWith("}\n"), dot);
    assertTrue(dot.contains("label=\"Q: Who \\\"starred\\\"\\nin it?\\nA: Tom Hanks\";"), dot);
    assertTrue(dot.contains("\"n2\" [label=\"Tom Hanks\", style=\"rounded,filled,bold\", fillcolor=\"gold\""), dot);
    assertTrue(dot.contains("\"n1\" [label=\"Forrest Gump\"];"), dot);
    assertTrue(dot.contains("\"n-5\" [label=\"#-5\"];"), dot);
    assertTrue(dot.contains("\"n4\" [label=\"Tom & \\\"Jerry\\\" <'Show'> \\\\ back slash\uFFFD\uFFFD é 😀\"];"), dot);
    assertTrue(dot.contains("\"n4\" -> \"n2\" [label=\"has <tag> & \\\"quote\\\"\"];"), dot);
    assertEquals(4, dot.split(" -> ", -1).length - 1);

    // every statement line is balanced: quoted strings close, nothing outside them but DOT syntax
    for (String line : dot.split("\n")) {
      List<String> strings = quotedStrings(line);
      String outside = line;
      for (String s : strings) {
        outside = outside.replace(s, "");
      }
      assertFalse(outside.contains("\\"), line);
      assertTrue(outside.matches("[\\sA-Za-z=\\[\\],;{}>-]*"), "unexpected text outside strings: " + line);
    }
  }

  /** The double-quoted strings of a DOT line, as written (quotes included); fails on an unclosed one. */
  private static List<String> quotedStrings(String line) {
    List<String> out = new ArrayList<>();
    int i = 0;
    while ((i = line.indexOf('"', i)) >= 0) {
      int j = i + 1;
      while (j < line.length() && line.charAt(j) != '"') {
        j += line.charAt(j) == '\\' ? 2 : 1;
      }
      assertTrue(j < line.length(), "unclosed string in: " + line);
      out.add(line.substring(i, j + 1));
      i = j + 1;
    }
    return out;
  }

  @Test
  void writesUtf8FilesCreatingTheFolder(@TempDir Path dir) throws Exception {
    EvidenceGraphWriter w = EvidenceGraphWriter.of("q", "Tom Hanks", null, EDGES);
    Path g = dir.resolve("out/sub/q1.graphml");
    Path d = dir.resolve("out/sub/q1.dot");
    w.writeGraphml(g);
    w.writeDot(d);
    assertEquals(w.graphml(), Files.readString(g, StandardCharsets.UTF_8));
    assertEquals(w.dot(), Files.readString(d, StandardCharsets.UTF_8));
    assertEquals(5, parse(Files.readString(g)).getElementsByTagNameNS(NS, "node").getLength());
  }

  @Test
  void anEmptyGraphIsStillValid() throws Exception {
    EvidenceGraphWriter w = new EvidenceGraphWriter(null, null, List.of(), List.of());
    assertEquals(0, parse(w.graphml()).getElementsByTagNameNS(NS, "node").getLength());
    assertEquals("digraph evidence {\n  node [shape=\"box\", style=\"rounded\"];\n}\n", w.dot());
  }

  @Test
  void carriageReturnsSurviveXmlParsing() throws Exception {
    EvidenceGraphWriter w = new EvidenceGraphWriter("line1\r\nline2", null, List.of(), List.of());
    Element graph = (Element) parse(w.graphml()).getElementsByTagNameNS(NS, "graph").item(0);
    assertEquals("line1\r\nline2", data(graph).get("question"));
    assertTrue(w.dot().contains("\"Q: line1\\nline2\""), w.dot());
  }
}
