package io.kgrag.core.method;

import io.kgrag.core.llm.LlmConfig;
import java.io.Serializable;

/**
 * Which side of a method asks the LLM in a run: its extractor (the question's parsing: query graph, pattern,
 * keywords, plan or set analysis) and its generator (the answer's writing), each embedded or through the
 * OpenAI-compatible endpoint of {@code llm}. Over a graph built from text, {@code --generator llm} is the passage
 * reader instead ({@code passageReader}): the method answers extractively and the LLM reads the answer from the
 * question's top passages after they are ranked ({@link io.kgrag.core.qa.llm.PassageReader}). The config names the
 * environment variable with the API key; the key never travels with the job.
 *
 * @param llm the endpoint, null when neither side asks it
 */
public record Components(LlmConfig llm, boolean llmExtractor, boolean llmGenerator, boolean passageReader) implements Serializable {
  /** The offline default: embedded extractor, extractive answers, no endpoint. */
  public static final Components OFFLINE = new Components(null, false, false);

  public Components {
    if ((llmExtractor || llmGenerator || passageReader) && llm == null) {
      throw new IllegalArgumentException("the LLM extractor or generator needs the endpoint's configuration");
    }
    if (llmGenerator && passageReader) {
      throw new IllegalArgumentException("the passage reader replaces the method's LLM generator: ask one of them");
    }
    if (!llmExtractor && !llmGenerator && !passageReader) {
      llm = null;
    }
  }

  /** Without the passage reader. */
  public Components(LlmConfig llm, boolean llmExtractor, boolean llmGenerator) {
    this(llm, llmExtractor, llmGenerator, false);
  }

  /** The extractor's name in the runs and query_graphs tables: {@code embedded} or {@code llm:<model>}. */
  public String extractorName() {
    return llmExtractor ? "llm:" + llm.model() : "embedded";
  }

  /**
   * The generator's name in the runs table: {@code extractive}, {@code llm:<model>} or, for the passage reader,
   * {@code llm-passages:<model>}.
   */
  public String generatorName() {
    return llmGenerator ? "llm:" + llm.model() : passageReader ? "llm-passages:" + llm.model() : "extractive";
  }
}
