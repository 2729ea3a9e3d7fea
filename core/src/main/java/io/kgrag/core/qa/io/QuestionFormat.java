package io.kgrag.core.qa.io;

import io.kgrag.core.UserInputException;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The question-set formats kgrag reads, by the name a user gives ({@code --format csv}) or by a file's
 * extension.
 */
public enum QuestionFormat {
  /** CSV with a header row, see {@link CsvQuestions}; extension {@code .csv}. */
  CSV("csv"),
  /** MetaQA {@code question<TAB>answers}, see {@link MetaQaQuestions}; extensions {@code .txt}, {@code .tsv}. */
  METAQA("metaqa"),
  /** JSON Lines, or one JSON array of objects a file (MuSiQue, HotpotQA), see {@link JsonlQuestions}; extensions {@code .jsonl}, {@code .json}. */
  JSONL("jsonl"),
  /** A Delta table with columns qid and question (answers optional); chosen by name or by its {@code _delta_log}. */
  DELTA("delta");

  private final String option;

  QuestionFormat(String option) {
    this.option = option;
  }

  /** The name users give, e.g. {@code metaqa}. */
  public String option() {
    return option;
  }

  /** "csv, metaqa, jsonl, delta". */
  public static String names() {
    return Arrays.stream(values()).map(QuestionFormat::option).collect(Collectors.joining(", "));
  }

  /**
   * The format a user named (case-insensitive).
   *
   * @throws UserInputException for any other name, listing the formats
   */
  public static QuestionFormat named(String name) {
    String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
    for (QuestionFormat f : values()) {
      if (f.option.equals(n)) {
        return f;
      }
    }
    throw new UserInputException("unknown question format '" + name + "'; use one of " + names());
  }

  /**
   * The format of a question file from its extension ({@code .gz} ignored): {@code .csv}; {@code .txt} or
   * {@code .tsv} (MetaQA); {@code .jsonl} or {@code .json}.
   *
   * @throws UserInputException for any other extension, naming the file, the extensions and the formats
   */
  public static QuestionFormat ofFile(String path) {
    String n = InputText.fileName(path).toLowerCase(Locale.ROOT);
    if (n.endsWith(".gz")) {
      n = n.substring(0, n.length() - 3);
    }
    if (n.endsWith(".csv")) {
      return CSV;
    }
    if (n.endsWith(".txt") || n.endsWith(".tsv")) {
      return METAQA;
    }
    if (n.endsWith(".jsonl") || n.endsWith(".json")) {
      return JSONL;
    }
    throw new UserInputException(
        "cannot tell the question format of " + path + " from its extension (.csv, .txt/.tsv for MetaQA,"
            + " .jsonl/.json); name it with --format, one of " + names());
  }
}
