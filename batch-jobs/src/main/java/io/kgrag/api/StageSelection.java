package io.kgrag.api;

import io.kgrag.core.UserInputException;
import io.kgrag.jobs.internal.pipeline.Pipeline;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** The stages {@code --stages} and {@code --skip} choose among a command's stages, in pipeline order. */
final class StageSelection {
  private StageSelection() {}

  /**
   * @param available the command's stages, in pipeline order
   * @param stages {@code --stages}, or null for all (all but ingest without an input)
   * @param skip {@code --skip}, or null
   * @param hasInput whether {@code --input} was given
   * @param command {@code index} or {@code reindex}, for the messages
   * @throws UserInputException for an unknown stage, none left, or an input without ingest (and the reverse)
   */
  static Set<String> select(List<String> available, List<String> stages, List<String> skip, boolean hasInput, String command) {
    Set<String> chosen = new LinkedHashSet<>();
    if (stages == null || stages.isEmpty()) {
      for (String s : available) {
        if (!s.equals("ingest") || hasInput) {
          chosen.add(s);
        }
      }
    } else {
      for (String s : stages) {
        chosen.add(check(available, s, command));
      }
    }
    if (skip != null) {
      for (String s : skip) {
        chosen.remove(check(available, s, command));
      }
    }
    Set<String> ordered = new LinkedHashSet<>();
    for (String s : Pipeline.names()) {
      if (chosen.contains(s)) {
        ordered.add(s);
      }
    }
    if (ordered.isEmpty()) {
      throw new UserInputException("no stage selected (stages: " + String.join(", ", available) + ")");
    }
    if (ordered.contains("ingest") && !hasInput) {
      throw new UserInputException("stage ingest needs --input <path> (or run other stages with --stages " + String.join(",", available.subList(1, available.size()))
          + ")");
    }
    if (hasInput && !ordered.contains("ingest")) {
      throw new UserInputException("--input given but stage ingest is not selected");
    }
    return ordered;
  }

  private static String check(List<String> available, String s, String command) {
    String n = s.trim().toLowerCase(Locale.ROOT);
    if (!available.contains(n)) {
      throw new UserInputException("unknown stage '" + s + "' (" + (command.equals("index") ? "" : command + " ") + "stages: " + String.join(", ", available) + ")");
    }
    return n;
  }
}
