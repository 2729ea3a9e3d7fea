package io.kgrag.core.qafd.sql;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The prompt templates of this package: text resources next to the classes with {@code {{NAME}}}
 * placeholders, filled in one pass (a value that itself contains "{{QUERY}}" is not filled again).
 */
final class Templates {
  private Templates() {}

  static String load(String name, String... placeholders) {
    String text;
    try (InputStream in = Templates.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("prompt resource " + name + " is missing from the classpath (io/kgrag/core/qafd/sql/)");
      }
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8).stripTrailing();
    } catch (IOException e) {
      throw new UncheckedIOException("could not read prompt resource " + name, e);
    }
    for (String p : placeholders) {
      if (!text.contains("{{" + p + "}}")) {
        throw new IllegalStateException("prompt resource " + name + " has no {{" + p + "}} placeholder");
      }
    }
    return text;
  }

  static String fill(String template, Map<String, String> values) {
    StringBuilder out = new StringBuilder(template.length() + 1024);
    int i = 0;
    while (i < template.length()) {
      int open = template.indexOf("{{", i);
      int close = open < 0 ? -1 : template.indexOf("}}", open + 2);
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

  /** {@code reply} without {@code <think>…</think>} blocks (reasoning models). */
  static String withoutThinking(String reply) {
    return reply.replaceAll("(?s)<think>.*?</think>", "").strip();
  }
}
