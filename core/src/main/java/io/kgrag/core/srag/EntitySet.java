package io.kgrag.core.srag;

import java.io.Serializable;

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
  /** "films —directed_by→ Ridley Scott" or "Ridley Scott —r→ members". */
  public String describe() {
    String members = typeWord == null || typeWord.isBlank() ? "?x" : typeWord;
    return membersAreSubjects ? members + " —" + relation + "→ " + anchorLabel : anchorLabel + " —" + relation + "→ " + members;
  }
}
