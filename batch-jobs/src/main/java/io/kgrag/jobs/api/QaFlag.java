package io.kgrag.jobs.api;

/** The {@code kgrag qa} options that only some methods read; a method lists the ones it reads. */
public enum QaFlag {
  /** {@code --exemplars <file>}: labelled questions to answer by example. */
  EXEMPLARS("--exemplars"),
  /** {@code --path-length <l>}: the length of the indexed paths to read. */
  PATH_LENGTH("--path-length"),
  /** {@code --min-similarity <cos>}: entity normalisation's least cosine. */
  MIN_SIMILARITY("--min-similarity");

  private final String option;

  QaFlag(String option) {
    this.option = option;
  }

  /** The option as typed on the command line. */
  public String option() {
    return option;
  }
}
