package io.kgrag.core.qafd.sql;

import io.kgrag.core.llm.PromptTemplates;
import java.util.Map;

/** The prompt templates of this package, through {@link PromptTemplates}. */
final class Templates {
  private Templates() {}

  /** The resource {@code name} next to this class, checked for each of {@code placeholders}. */
  static String load(String name, String... placeholders) {
    return PromptTemplates.requirePlaceholders(PromptTemplates.load(Templates.class, name), placeholders);
  }

  static String fill(String template, Map<String, String> values) {
    return PromptTemplates.fill(template, values);
  }
}
