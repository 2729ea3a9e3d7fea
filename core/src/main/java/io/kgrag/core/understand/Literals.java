package io.kgrag.core.understand;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The numbers a question writes: digits ("1990", "3", "2.5") and English numerals ("three", "twelve"), and the
 * English multipliers ("twice", "double", "triple"). They are the literals of filters ("after 1990", "between
 * 1950 and 1960") and of hypothetical arithmetic ("three more"); which operation reads them is chosen by
 * {@link OperationChooser}, not here.
 */
public final class Literals {
  /**
   * One number of the question.
   *
   * @param start its first character in the question
   * @param end one past its last character
   * @param multiplier a multiplier word ("twice") rather than a count
   */
  public record Literal(double value, int start, int end, boolean multiplier) {
    /** A whole number from 1000 to 2999: possibly a year. */
    public boolean yearLike() {
      return value == Math.rint(value) && value >= 1000 && value < 3000;
    }
  }

  private static final Map<String, Integer> CARDINALS = Map.ofEntries(
      Map.entry("one", 1), Map.entry("two", 2), Map.entry("three", 3), Map.entry("four", 4), Map.entry("five", 5),
      Map.entry("six", 6), Map.entry("seven", 7), Map.entry("eight", 8), Map.entry("nine", 9), Map.entry("ten", 10),
      Map.entry("eleven", 11), Map.entry("twelve", 12), Map.entry("thirteen", 13), Map.entry("fourteen", 14),
      Map.entry("fifteen", 15), Map.entry("sixteen", 16), Map.entry("seventeen", 17), Map.entry("eighteen", 18),
      Map.entry("nineteen", 19), Map.entry("twenty", 20), Map.entry("thirty", 30), Map.entry("forty", 40),
      Map.entry("fifty", 50), Map.entry("hundred", 100));
  private static final Map<String, Integer> MULTIPLIERS = Map.of("twice", 2, "double", 2, "doubled", 2, "triple", 3, "tripled", 3, "thrice", 3);
  private static final Pattern TOKEN = Pattern.compile("(?<![\\p{L}\\d.])(\\d+(?:[.,]\\d+)?)(?![\\p{L}\\d])|\\b(\\p{L}+)\\b");

  private static final Pattern NUMBER = Pattern.compile("-?\\d+(?:\\.\\d+)?");

  private Literals() {}

  /** The question's numbers in order. A number inside a mention is the caller's to skip (a title "1984"). */
  public static List<Literal> of(String question) {
    List<Literal> out = new ArrayList<>();
    Matcher m = TOKEN.matcher(question);
    while (m.find()) {
      if (m.group(1) != null) {
        out.add(new Literal(Double.parseDouble(m.group(1).replace(',', '.')), m.start(), m.end(), false));
        continue;
      }
      String w = m.group(2).toLowerCase(Locale.ROOT);
      Integer c = CARDINALS.get(w);
      if (c != null) {
        out.add(new Literal(c, m.start(), m.end(), false));
      } else if (MULTIPLIERS.containsKey(w)) {
        out.add(new Literal(MULTIPLIERS.get(w), m.start(), m.end(), true));
      }
    }
    return out;
  }

  /** Whether {@code label} is written as a number ("1994", "7.5", "-3"). */
  public static boolean isNumber(String label) {
    return label != null && NUMBER.matcher(label).matches();
  }

  /** The number {@code label} is, or NaN: a value node of a numeric relation ("1994", "7.5"). */
  public static double valueOf(String label) {
    if (label == null || label.isEmpty() || label.length() > 24) {
      return Double.NaN;
    }
    return isNumber(label) ? Double.parseDouble(label) : Double.NaN;
  }
}
