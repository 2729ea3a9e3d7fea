package io.kgrag.jobs.conf;

import io.kgrag.core.UserInputException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Binds a settings record from {@code <prefix><component in kebab case>} keys: {@code seedMinSimilarity} is read
 * from {@code spark.kgrag.qafd.seed-min-similarity}. A key that is not set takes the component's value in the
 * record's public static {@code defaults()}. Values are read as the component's type (int, long, double, float,
 * boolean, String, or an enum, by its name in any case). Every error names the key and what to give: a value of
 * the wrong type, an enum value not known, a value the record rejects ({@link BadOption}), and a key under the
 * prefix that no component reads (a typo would otherwise be silently ignored; keys with a further dot belong to
 * someone else, such as {@code spark.kgrag.stem.gnn.*}).
 */
public final class OptionsBinder {
  private OptionsBinder() {}

  /** A value a settings record rejects, naming the record component. */
  public static final class BadOption extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final String component;

    public BadOption(String component, String problem) {
      super(problem);
      this.component = component;
    }

    /** The record component whose value is bad. */
    public String component() {
      return component;
    }
  }

  /**
   * Checks one component's value in a settings record's canonical constructor.
   *
   * @throws BadOption naming {@code component} when {@code ok} is false
   */
  public static void check(boolean ok, String component, String problem) {
    if (!ok) {
      throw new BadOption(component, problem);
    }
  }

  /** {@code seedMinSimilarity} as {@code seed-min-similarity}. */
  public static String kebab(String component) {
    StringBuilder b = new StringBuilder();
    for (char c : component.toCharArray()) {
      if (Character.isUpperCase(c)) {
        b.append('-').append(Character.toLowerCase(c));
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  /** The keys {@code type} reads under {@code prefix}, in component order. */
  public static List<String> keys(Class<? extends Record> type, String prefix) {
    List<String> out = new ArrayList<>();
    for (RecordComponent c : type.getRecordComponents()) {
      out.add(prefix + kebab(c.getName()));
    }
    return out;
  }

  /** The record's {@code defaults()}. */
  public static <R extends Record> R defaults(Class<R> type) {
    try {
      Method m = type.getMethod("defaults");
      if (!Modifier.isStatic(m.getModifiers()) || !type.isAssignableFrom(m.getReturnType())) {
        throw new IllegalStateException(type.getName() + ".defaults() must be static and return " + type.getSimpleName());
      }
      return type.cast(m.invoke(null));
    } catch (NoSuchMethodException | IllegalAccessException e) {
      throw new IllegalStateException(type.getName() + " needs a public static defaults()", e);
    } catch (InvocationTargetException e) {
      throw new IllegalStateException(type.getName() + ".defaults() failed: " + e.getCause(), e.getCause());
    }
  }

  /**
   * The record bound from {@code settings} (key to value, null when unset) under {@code prefix} (ending with a
   * dot, e.g. {@code spark.kgrag.qafd.}); {@code allKeys} are every key set, to find the ones no component reads.
   *
   * @throws UserInputException naming the key, for any bad or unknown setting
   */
  public static <R extends Record> R bind(Class<R> type, String prefix, Function<String, String> settings, Iterable<String> allKeys) {
    RecordComponent[] comps = type.getRecordComponents();
    TreeSet<String> known = new TreeSet<>(keys(type, prefix));
    for (String k : allKeys) {
      if (k.startsWith(prefix) && k.indexOf('.', prefix.length()) < 0 && !known.contains(k)) {
        throw new UserInputException("unknown setting " + k + ": " + prefix + "* has " + String.join(", ", known));
      }
    }
    R dflt = defaults(type);
    Object[] args = new Object[comps.length];
    Class<?>[] types = new Class<?>[comps.length];
    String[] given = new String[comps.length];
    for (int i = 0; i < comps.length; i++) {
      RecordComponent c = comps[i];
      types[i] = c.getType();
      String key = prefix + kebab(c.getName());
      String v = settings.apply(key);
      if (v == null || v.isBlank()) {
        try {
          args[i] = c.getAccessor().invoke(dflt);
        } catch (IllegalAccessException | InvocationTargetException e) {
          throw new IllegalStateException("cannot read " + type.getName() + "." + c.getName(), e);
        }
      } else {
        given[i] = v.strip();
        args[i] = parse(key, given[i], c.getType());
      }
    }
    try {
      Constructor<R> ctor = type.getDeclaredConstructor(types);
      return ctor.newInstance(args);
    } catch (InvocationTargetException e) {
      Throwable t = e.getCause();
      if (t instanceof BadOption b) {
        int i = indexOf(comps, b.component());
        String key = prefix + kebab(b.component());
        String value = i >= 0 ? (given[i] != null ? given[i] : String.valueOf(args[i]) + " (the default)") : "?";
        throw new UserInputException("configuration " + key + "=" + value + ": " + b.getMessage(), b);
      }
      if (t instanceof IllegalArgumentException) {
        throw new UserInputException(culprit(type, prefix, comps, types, given, args, dflt) + ": " + t.getMessage(), t);
      }
      throw new IllegalStateException("cannot build " + type.getName() + ": " + t, t);
    } catch (NoSuchMethodException | InstantiationException | IllegalAccessException e) {
      throw new IllegalStateException("cannot build " + type.getName() + ": " + e, e);
    }
  }

  /**
   * For a record that rejects its values without naming the component: the one key whose value alone (the others
   * at their defaults) the record rejects, or the keys given, when only their combination is rejected.
   */
  private static String culprit(
      Class<? extends Record> type, String prefix, RecordComponent[] comps, Class<?>[] types, String[] given, Object[] args, Record dflt) {
    List<String> set = new ArrayList<>();
    for (int i = 0; i < comps.length; i++) {
      if (given[i] == null) {
        continue;
      }
      set.add(prefix + kebab(comps[i].getName()) + "=" + given[i]);
      Object[] alone = new Object[comps.length];
      try {
        for (int j = 0; j < comps.length; j++) {
          alone[j] = j == i ? args[i] : comps[j].getAccessor().invoke(dflt);
        }
        type.getDeclaredConstructor(types).newInstance(alone);
      } catch (InvocationTargetException e) {
        if (e.getCause() instanceof IllegalArgumentException) {
          return "configuration " + prefix + kebab(comps[i].getName()) + "=" + given[i];
        }
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("cannot build " + type.getName() + ": " + e, e);
      }
    }
    return set.isEmpty() ? "the defaults of " + prefix + "*" : "configuration " + String.join(", ", set) + " (together)";
  }

  /** {@link #bind} over a map of settings. */
  public static <R extends Record> R bind(Class<R> type, String prefix, Map<String, String> settings) {
    return bind(type, prefix, settings::get, settings.keySet());
  }

  private static int indexOf(RecordComponent[] comps, String name) {
    for (int i = 0; i < comps.length; i++) {
      if (comps[i].getName().equals(name)) {
        return i;
      }
    }
    return -1;
  }

  private static Object parse(String key, String v, Class<?> t) {
    try {
      if (t == int.class || t == Integer.class) {
        return Integer.parseInt(v.replace("_", ""));
      }
      if (t == long.class || t == Long.class) {
        return Long.parseLong(v.replace("_", ""));
      }
      if (t == double.class || t == Double.class) {
        return Double.parseDouble(v);
      }
      if (t == float.class || t == Float.class) {
        return Float.parseFloat(v);
      }
    } catch (NumberFormatException e) {
      String what = t == int.class || t == Integer.class || t == long.class || t == Long.class ? "an integer" : "a number";
      throw new UserInputException("configuration " + key + "=" + v + " is not " + what);
    }
    if (t == boolean.class || t == Boolean.class) {
      String l = v.toLowerCase(Locale.ROOT);
      if (l.equals("true") || l.equals("false")) {
        return Boolean.parseBoolean(l);
      }
      throw new UserInputException("configuration " + key + "=" + v + " is not true or false");
    }
    if (t == String.class) {
      return v;
    }
    if (t.isEnum()) {
      for (Object c : t.getEnumConstants()) {
        if (((Enum<?>) c).name().equalsIgnoreCase(v.replace('-', '_'))) {
          return c;
        }
      }
      List<String> names = new ArrayList<>();
      for (Object c : t.getEnumConstants()) {
        names.add(((Enum<?>) c).name().toLowerCase(Locale.ROOT).replace('_', '-'));
      }
      String list = names.size() == 1 ? names.get(0)
          : String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1);
      throw new UserInputException("configuration " + key + "=" + v.toLowerCase(Locale.ROOT) + " is not known: use " + list);
    }
    throw new IllegalStateException("settings records hold numbers, booleans, strings and enums, not " + t.getName() + " (" + key + ")");
  }
}
