package io.kgrag.core.srag;

import io.kgrag.core.graph.KnowledgeGraph;
import java.io.Serializable;
import java.util.TreeSet;

/**
 * The pattern that defines a question's entity set: every node joined to the anchor by {@code relation}
 * ("films —directed_by→ Ridley Scott": {@code membersAreSubjects}, members are the edges' heads).
 *
 * @param typeWord the question's word for the members ({@code films}), for display; may be null
 * @param anchorId the anchor's entity id
 * @param anchorLabel the anchor's label
 * @param relation the relation joining members to the anchor
 * @param membersAreSubjects true when the edges run member → anchor, false when anchor → member
 */
public record EntitySet(String typeWord, long anchorId, String anchorLabel, String relation, boolean membersAreSubjects) implements Serializable {
  /** The member nodes, ascending: every node the set's relation joins to the anchor, in the set's direction. */
  public int[] members(KnowledgeGraph graph) {
    int anchor = graph.index(anchorId);
    TreeSet<Integer> out = new TreeSet<>();
    for (int k = 0; anchor >= 0 && k < graph.entryCount(anchor); k++) {
      // members are subjects: the anchor sees the edge as incoming
      if (graph.entryRelation(anchor, k).equals(relation) && graph.entryOutgoing(anchor, k) != membersAreSubjects) {
        out.add(graph.entryNeighbour(anchor, k));
      }
    }
    return out.stream().mapToInt(Integer::intValue).toArray();
  }

  /** "films —directed_by→ Ridley Scott" or "Ridley Scott —r→ members". */
  public String describe() {
    String members = typeWord == null || typeWord.isBlank() ? "?x" : typeWord;
    return membersAreSubjects ? members + " —" + relation + "→ " + anchorLabel : anchorLabel + " —" + relation + "→ " + members;
  }
}
