package io.kgrag.core.srag;

/**
 * Question analysis (the paper's §4.1 semantic parsing and §4.2 schema generation): a multi-entity question
 * into its entity set, the properties its table needs, and the operation.
 */
public interface SetAnalyser {
  /**
   * The analysed question.
   *
   * @throws io.kgrag.core.qa.QaException with status {@code unable} when the question names no entity set the
   *     graph holds, or no operation can be told
   */
  SetQuery analyse(String question);
}
