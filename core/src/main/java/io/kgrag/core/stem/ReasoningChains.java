package io.kgrag.core.stem;

import io.kgrag.core.qa.EvidenceEdge;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * STEM's linearisation of G_reason into reasoning chains C_reason (§3.6: "Depth-First Search starting from
 * the question-entity nodes in G_reason"), the knowledge structure graph of the answer prompt P3 (Fig. 16).
 *
 * <p>The edges are taken undirected (the tracing ignores direction, §3.5), repeats dropped, in list order.
 * A DFS runs from each start entity (in the order they first appear in the edges; starts on no edge are
 * skipped), then from the first node of each part no start reached. Every edge is walked once. A line is
 * the path from the DFS's start to a node where it cannot go on: a node with no unwalked edge, or a node
 * already visited (the line ends there, so a cycle is written once, closed). Each line starts again at the
 * DFS's start, so every chain reads from a question entity.
 *
 * <p>A step in the edge's direction is written {@code  -[relation]-> dst}, against it {@code  <-[relation]- src}:
 * {@code Tom Hanks <-[starred_actors]- Forrest Gump -[directed_by]-> Robert Zemeckis}. The relation is the
 * graph's name; a blank label is written {@code entity ID}.
 */
public final class ReasoningChains {
  private ReasoningChains() {}

  /**
   * The chains of {@code edges}, at most {@code maxLines} of them (see the class comment).
   *
   * @param startEntityIds the question entities' ids; may be empty (every part from its first node)
   */
  public static List<String> chains(List<EvidenceEdge> edges, Set<Long> startEntityIds, int maxLines) {
    Objects.requireNonNull(edges, "edges");
    if (maxLines < 1) {
      throw new IllegalArgumentException("maxLines must be >= 1, got " + maxLines);
    }
    Set<Long> starts = startEntityIds == null ? Set.of() : startEntityIds;
    List<EvidenceEdge> es = new ArrayList<>();
    Set<List<Object>> seen = new HashSet<>();
    for (EvidenceEdge e : edges) {
      if (seen.add(List.of(e.srcId(), String.valueOf(e.relation()), e.dstId()))) {
        es.add(e);
      }
    }
    Map<Long, List<Integer>> adj = new HashMap<>();
    Map<Long, String> labels = new HashMap<>();
    Set<Long> order = new LinkedHashSet<>();
    for (int i = 0; i < es.size(); i++) {
      EvidenceEdge e = es.get(i);
      adj.computeIfAbsent(e.srcId(), k -> new ArrayList<>()).add(i);
      if (e.dstId() != e.srcId()) {
        adj.computeIfAbsent(e.dstId(), k -> new ArrayList<>()).add(i);
      }
      labels.putIfAbsent(e.srcId(), label(e.srcLabel(), e.srcId()));
      labels.putIfAbsent(e.dstId(), label(e.dstLabel(), e.dstId()));
      order.add(e.srcId());
      order.add(e.dstId());
    }
    Walk w = new Walk(es, adj, labels, maxLines);
    for (long s : order) {
      if (starts.contains(s) && !w.visited.contains(s)) {
        w.from(s);
      }
    }
    for (int i = 0; i < es.size() && w.lines.size() < maxLines; i++) {
      if (!w.used[i]) {
        w.from(w.visited.contains(es.get(i).srcId()) ? es.get(i).dstId() : es.get(i).srcId());
      }
    }
    return List.copyOf(w.lines);
  }

  private static String label(String label, long id) {
    return label == null || label.isBlank() ? "entity " + id : label.strip();
  }

  private static final class Walk {
    final List<EvidenceEdge> edges;
    final Map<Long, List<Integer>> adj;
    final Map<Long, String> labels;
    final int maxLines;
    final boolean[] used;
    final Set<Long> visited = new HashSet<>();
    final List<String> lines = new ArrayList<>();

    Walk(List<EvidenceEdge> edges, Map<Long, List<Integer>> adj, Map<Long, String> labels, int maxLines) {
      this.edges = edges;
      this.adj = adj;
      this.labels = labels;
      this.maxLines = maxLines;
      this.used = new boolean[edges.size()];
    }

    void from(long start) {
      visited.add(start);
      dfs(start, new StringBuilder(labels.get(start)), true);
    }

    /** Walks on from {@code node}; {@code path} is the line so far. */
    private void dfs(long node, StringBuilder path, boolean atStart) {
      boolean went = false;
      for (int i : adj.getOrDefault(node, List.of())) {
        if (used[i] || lines.size() >= maxLines) {
          continue;
        }
        used[i] = true;
        went = true;
        EvidenceEdge e = edges.get(i);
        boolean forward = e.srcId() == node;
        long other = forward ? e.dstId() : e.srcId();
        StringBuilder next = new StringBuilder(path)
            .append(forward ? " -[" + e.relation() + "]-> " : " <-[" + e.relation() + "]- ")
            .append(labels.get(other));
        if (visited.contains(other)) {
          lines.add(next.toString());
        } else {
          visited.add(other);
          dfs(other, next, false);
        }
      }
      if (!went && !atStart && lines.size() < maxLines) {
        lines.add(path.toString());
      }
    }
  }
}
