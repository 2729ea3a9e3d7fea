package io.kgrag.core.text.extract;

import java.util.Objects;

/**
 * A relation read from a chunk: {@code subject -relation-> object}, with names as written.
 *
 * @param subject the head entity's name
 * @param relation the relation phrase (e.g. "was born in")
 * @param object the tail entity's name
 * @param description the sentence or the extractor's description that supports it, may be empty
 * @param confidence the extractor's confidence in [0, 1] (1 when it gives none)
 */
public record ExtractedTriple(String subject, String relation, String object, String description, double confidence) {
  public ExtractedTriple {
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(relation, "relation");
    Objects.requireNonNull(object, "object");
    description = description == null ? "" : description;
  }
}
