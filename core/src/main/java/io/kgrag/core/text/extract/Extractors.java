package io.kgrag.core.text.extract;

import io.kgrag.core.UserInputException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.ServiceLoader;

/** Finds {@link TripleExtractorProvider}s on the classpath by name. */
public final class Extractors {
  private Extractors() {}

  /** Every provider on the classpath, sorted by name. */
  public static List<TripleExtractorProvider> available() {
    List<TripleExtractorProvider> all = new ArrayList<>();
    ServiceLoader.load(TripleExtractorProvider.class, Extractors.class.getClassLoader()).forEach(all::add);
    all.sort((a, b) -> a.name().compareTo(b.name()));
    return all;
  }

  /**
   * The provider called {@code name}.
   *
   * @throws UserInputException naming the extractors that are available, and how to get {@code openie}
   *     (its module is GPL-licensed and built separately), when none is called so
   */
  public static TripleExtractorProvider provider(String name) {
    String wanted = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
    List<String> names = new ArrayList<>();
    for (TripleExtractorProvider p : available()) {
      if (p.name().equals(wanted)) {
        return p;
      }
      names.add(p.name());
    }
    String hint =
        wanted.equals("openie")
            ? " (the openie extractor is the GPL-licensed module extract-openie: build it with mvn -DskipTests"
                + " install, or put its jar and Stanford CoreNLP with its models on the classpath)"
            : "";
    throw new UserInputException(
        "--extractor: no extractor named '" + name + "'" + hint + "; available: "
            + (names.isEmpty() ? "none" : String.join(", ", names)));
  }
}
