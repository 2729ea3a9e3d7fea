package io.kgrag.core.text.extract;

import java.util.Objects;

/**
 * An entity mention.
 *
 * @param name the name as written in the chunk
 * @param type a coarse type (PERSON, LOCATION, ORGANIZATION, DATE, ...) or empty when unknown
 * @param description what the chunk says of it, may be empty
 */
public record ExtractedEntity(String name, String type, String description) {
  public ExtractedEntity {
    Objects.requireNonNull(name, "name");
    type = type == null ? "" : type;
    description = description == null ? "" : description;
  }
}
