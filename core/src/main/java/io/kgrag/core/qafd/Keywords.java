package io.kgrag.core.qafd;

import java.io.Serializable;
import java.util.List;

/**
 * A question's keywords in the shape of the paper's Prompt 2 reply: high-level keywords (concepts,
 * themes: "direct", "sport") and low-level ones (entities, details: "Tom Hanks", "Barbados").
 */
public record Keywords(List<String> high, List<String> low) implements Serializable {
  public Keywords {
    high = List.copyOf(high);
    low = List.copyOf(low);
  }

  /** Low-level first, then high-level, without repeats (case-insensitive). */
  public List<String> all() {
    java.util.LinkedHashMap<String, String> out = new java.util.LinkedHashMap<>();
    for (String k : low) {
      out.putIfAbsent(k.strip().toLowerCase(java.util.Locale.ROOT), k.strip());
    }
    for (String k : high) {
      out.putIfAbsent(k.strip().toLowerCase(java.util.Locale.ROOT), k.strip());
    }
    out.remove("");
    return List.copyOf(out.values());
  }

  public boolean isEmpty() {
    return all().isEmpty();
  }
}
