package io.kgrag.jobs.internal.qa;

import io.kgrag.core.UserInputException;
import io.kgrag.jobs.api.RetrievalMethod;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * The retrieval methods on the classpath, found through {@link ServiceLoader} ({@code
 * META-INF/services/io.kgrag.jobs.api.RetrievalMethod}), by name.
 */
public final class Methods {
  private Methods() {}

  /** Every method found, by name. */
  public static Map<String, RetrievalMethod> all() {
    Map<String, RetrievalMethod> out = new TreeMap<>();
    for (RetrievalMethod m : ServiceLoader.load(RetrievalMethod.class, Methods.class.getClassLoader())) {
      RetrievalMethod before = out.put(m.name(), m);
      if (before != null && !before.getClass().equals(m.getClass())) {
        throw new IllegalStateException("two retrieval methods are named " + m.name() + ": " + before.getClass().getName() + " and " + m.getClass().getName());
      }
    }
    return out;
  }

  /**
   * The method named {@code name} (any case, spaces around ignored).
   *
   * @throws UserInputException naming the methods found, when there is none of that name
   */
  public static RetrievalMethod named(String name) {
    String n = name == null ? "" : name.strip().toLowerCase(Locale.ROOT);
    RetrievalMethod m = all().get(n);
    if (m == null) {
      throw new UserInputException(
          "--method " + String.valueOf(name).replaceAll("\\p{Cntrl}", "?") + " is not available; methods found: " + String.join(", ", all().keySet()));
    }
    return m;
  }

  /** The method used when none is named: the one that says it is the default. */
  public static RetrievalMethod defaultMethod() {
    List<RetrievalMethod> defaults = new ArrayList<>();
    for (RetrievalMethod m : all().values()) {
      if (m.isDefault()) {
        defaults.add(m);
      }
    }
    if (defaults.size() != 1) {
      throw new IllegalStateException("exactly one retrieval method must be the default, found " + defaults.size() + " among " + all().keySet());
    }
    return defaults.get(0);
  }
}
