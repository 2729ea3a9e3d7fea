package io.kgrag.core.srag;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The answer text of a query result (the paper: "a single value or a subset of the table"): one value as
 * itself; one column of several rows as a set, sorted case-insensitively and joined by {@code "; "};
 * two columns as {@code value: count} pairs in the query's order (a distribution); wider rows as
 * {@code name=value} lists. Whole numbers print without a decimal point, others with at most 4 decimals;
 * booleans as yes / no; arrays in brackets.
 */
public final class AnswerRenderer {
  /** The order of a set's labels: case-insensitive, then exact (the generator of bench/srag sorts so too). */
  public static final java.util.Comparator<String> LABEL_ORDER = String.CASE_INSENSITIVE_ORDER.thenComparing(java.util.Comparator.naturalOrder());

  private AnswerRenderer() {}

  /** The answer, or null when the result has no rows or only a null value. */
  public static String render(List<String> columns, List<Object[]> rows) {
    if (rows.isEmpty()) {
      return null;
    }
    if (columns.size() == 1) {
      List<String> vs = new ArrayList<>();
      for (Object[] r : rows) {
        if (r[0] != null) {
          vs.add(text(r[0]));
        }
      }
      if (vs.isEmpty()) {
        return null;
      }
      vs.sort(LABEL_ORDER);
      return String.join("; ", vs.stream().distinct().toList());
    }
    List<String> parts = new ArrayList<>();
    for (Object[] r : rows) {
      if (columns.size() == 2) {
        parts.add(text(r[0]) + ": " + text(r[1]));
      } else {
        List<String> cells = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
          cells.add(columns.get(i) + "=" + text(r[i]));
        }
        parts.add(String.join(", ", cells));
      }
    }
    return String.join("; ", parts);
  }

  /** One value as text (see the class comment). */
  public static String text(Object v) {
    if (v == null) {
      return "null";
    }
    if (v instanceof Boolean b) {
      return b ? "yes" : "no";
    }
    if (v instanceof Double || v instanceof Float) {
      return number(((Number) v).doubleValue());
    }
    if (v instanceof BigDecimal d) {
      return number(d.doubleValue());
    }
    if (v instanceof Collection<?> c) {
      List<String> s = new ArrayList<>();
      c.forEach(x -> s.add(text(x)));
      return "[" + String.join(", ", s) + "]";
    }
    if (v instanceof Map<?, ?> m) {
      List<String> s = new ArrayList<>();
      m.forEach((k, x) -> s.add(text(k) + ": " + text(x)));
      return "{" + String.join(", ", s) + "}";
    }
    return v.toString();
  }

  /** A number: whole numbers without a decimal point, others rounded to at most 4 decimals. */
  public static String number(double d) {
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      return Double.toString(d);
    }
    if (d == Math.rint(d) && Math.abs(d) < 1e15) {
      return Long.toString((long) d);
    }
    return BigDecimal.valueOf(d).setScale(4, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
  }
}
