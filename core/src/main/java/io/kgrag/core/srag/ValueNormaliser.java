package io.kgrag.core.srag;

import java.text.Normalizer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns the labels of property values into table values (the paper's table filling, done from the graph
 * instead of by an LLM, so its "US" vs "America" failure cannot arise from extraction):
 *
 * <ul>
 *   <li>text is NFC-normalised, trimmed, with runs of white space made one space;
 *   <li>an integer ({@code 1994}, {@code -3}, {@code 1,234,567}) becomes a {@link Long} — years are integers;
 *   <li>a decimal ({@code 7.5}, {@code 1,234.5}, {@code 2.5e3}), a rating out of a scale ({@code 8.1/10},
 *       {@code 4/5}: the numerator) or a percentage ({@code 85%}) becomes a {@link Double};
 *   <li>anything else stays text.
 * </ul>
 *
 * A column takes the narrowest kind all its values fit ({@link EntityTable.Kind#of}).
 */
public final class ValueNormaliser {
  private static final Pattern SPACES = Pattern.compile("\\s+");
  private static final Pattern INTEGER = Pattern.compile("[+-]?(\\d{1,3}(,\\d{3})+|\\d+)");
  private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d{1,3}(,\\d{3})+|\\d+)?\\.\\d+([eE][+-]?\\d+)?|[+-]?\\d+[eE][+-]?\\d+");
  private static final Pattern RATING = Pattern.compile("([+-]?\\d+(\\.\\d+)?)\\s*/\\s*\\d+(\\.\\d+)?");
  private static final Pattern PERCENT = Pattern.compile("([+-]?\\d+(\\.\\d+)?)\\s*%");

  private ValueNormaliser() {}

  /** The cleaned text of a label: NFC, trimmed, single spaces; null stays null. */
  public static String clean(String label) {
    if (label == null) {
      return null;
    }
    return SPACES.matcher(Normalizer.normalize(label, Normalizer.Form.NFC)).replaceAll(" ").strip();
  }

  /** The value of a label: a Long, a Double or the cleaned text (see the class comment); null for null or blank. */
  public static Object value(String label) {
    String s = clean(label);
    if (s == null || s.isEmpty()) {
      return null;
    }
    if (INTEGER.matcher(s).matches()) {
      String digits = s.replace(",", "");
      try {
        return Long.parseLong(digits.startsWith("+") ? digits.substring(1) : digits);
      } catch (NumberFormatException tooLong) {
        return Double.parseDouble(digits);
      }
    }
    if (DECIMAL.matcher(s).matches()) {
      return Double.parseDouble(s.replace(",", ""));
    }
    Matcher m = RATING.matcher(s);
    if (m.matches()) {
      return Double.parseDouble(m.group(1));
    }
    m = PERCENT.matcher(s);
    if (m.matches()) {
      return Double.parseDouble(m.group(1));
    }
    return s;
  }
}
