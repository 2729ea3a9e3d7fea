package io.kgrag.core.llm;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Prompt templates kept as text resources next to the classes that use them, with {@code {{NAME}}}
 * placeholders as the papers write them ({@code {{QUERY}}}, {@code {{RETRIEVED SUBGRAPHS}}}).
 */
public final class PromptTemplates {
  private PromptTemplates() {}

  /** The resource {@code name} next to {@code owner} as UTF-8 text, without trailing whitespace. */
  public static String load(Class<?> owner, String name) {
    try (InputStream in = owner.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException(
            "prompt resource " + name + " is missing from the classpath (" + owner.getPackageName().replace('.', '/') + "/)");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).stripTrailing();
    } catch (IOException e) {
      throw new UncheckedIOException("could not read prompt resource " + name, e);
    }
  }

  /** Checks that {@code template} holds each of {@code placeholders} (names without braces). */
  public static String requirePlaceholders(String template, String... placeholders) {
    if (template == null || template.isBlank()) {
      throw new IllegalArgumentException("the prompt template is empty");
    }
    for (String p : placeholders) {
      if (!template.contains("{{" + p + "}}")) {
        throw new IllegalArgumentException("the prompt template has no {{" + p + "}} placeholder");
      }
    }
    return template;
  }

  /**
   * {@code template} with each {@code {{NAME}}} of {@code values} replaced, in one pass: text that a value
   * brings in (a question that itself contains "{{QUERY}}") is never replaced again. Placeholders without
   * a value are left as they are.
   */
  public static String fill(String template, Map<String, String> values) {
    StringBuilder out = new StringBuilder(template.length() + 256);
    int i = 0;
    while (i < template.length()) {
      int open = template.indexOf("{{", i);
      if (open < 0) {
        break;
      }
      int close = template.indexOf("}}", open + 2);
      if (close < 0) {
        break;
      }
      String value = values.get(template.substring(open + 2, close));
      if (value == null) {
        out.append(template, i, open + 2);
        i = open + 2;
        continue;
      }
      out.append(template, i, open).append(value);
      i = close + 2;
    }
    return out.append(template, i, template.length()).toString();
  }
}
