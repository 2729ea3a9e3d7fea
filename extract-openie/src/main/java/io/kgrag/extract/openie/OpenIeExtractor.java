package io.kgrag.extract.openie;

import edu.stanford.nlp.ie.util.RelationTriple;
import edu.stanford.nlp.ling.CoreAnnotations;
import edu.stanford.nlp.ling.CoreLabel;
import edu.stanford.nlp.naturalli.NaturalLogicAnnotations;
import edu.stanford.nlp.pipeline.Annotation;
import edu.stanford.nlp.pipeline.StanfordCoreNLP;
import edu.stanford.nlp.util.CoreMap;
import io.kgrag.core.text.extract.Extraction;
import io.kgrag.core.text.extract.ExtractionException;
import io.kgrag.core.text.extract.TextChunk;
import io.kgrag.core.text.extract.TripleExtractor;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Stanford CoreNLP NER + OpenIE over one chunk, filtered by {@link TripleFilter}. Cheap to create: the
 * pipelines are shared per JVM ({@link Pipelines}). Two stages: tokenize, ssplit, pos, lemma and NER on
 * every sentence, then depparse, natlog and OpenIE only on sentences no longer than {@code
 * openie.max-sentence-length} tokens (longer ones are reported in {@link Extraction#rejected()}).
 */
public final class OpenIeExtractor implements TripleExtractor {
  /** Rejection reasons listed per sentence before they are only counted. */
  static final int MAX_REJECTED_PER_SENTENCE = 10;

  private final OpenIeSettings settings;
  private final TripleFilter filter;

  public OpenIeExtractor(OpenIeSettings settings) {
    this.settings = settings;
    this.filter = new TripleFilter(settings.minConfidence(), MAX_REJECTED_PER_SENTENCE, settings.titleAntecedent());
  }

  /** Loads the shared pipelines now (otherwise the first chunk does), e.g. to time the load apart. */
  public void warmUp() {
    nerPipeline();
    parsePipeline();
  }

  /** Seconds this JVM has spent loading CoreNLP pipelines. */
  public static double loadSeconds() {
    return Pipelines.loadSeconds();
  }

  @Override
  public Extraction extract(TextChunk chunk) {
    if (chunk.text().isBlank()) {
      return Extraction.empty();
    }
    StanfordCoreNLP ner = nerPipeline();
    StanfordCoreNLP parse = parsePipeline();
    Annotation doc = new Annotation(chunk.text());
    List<String> rejected = new ArrayList<>();
    List<CoreMap> sentences;
    try {
      ner.annotate(doc);
      sentences = doc.get(CoreAnnotations.SentencesAnnotation.class);
      List<CoreMap> parsed = new ArrayList<>();
      for (int i = 0; i < sentences.size(); i++) {
        int n = sentences.get(i).get(CoreAnnotations.TokensAnnotation.class).size();
        if (n <= settings.maxSentenceLength()) {
          parsed.add(sentences.get(i));
        } else {
          rejected.add("sentence " + (i + 1) + ": " + n + " tokens, over " + OpenIeSettings.MAX_SENTENCE_LENGTH + " "
              + settings.maxSentenceLength() + ": not parsed (its entities are kept)");
        }
      }
      if (!parsed.isEmpty()) {
        parse.annotate(subDocument(chunk.text(), parsed));
      }
    } catch (RuntimeException e) {
      throw new ExtractionException("openie: CoreNLP failed on chunk " + chunk.chunkId() + " of document " + chunk.docId()
          + ": " + e, e);
    }
    List<TripleFilter.Sentence> view = new ArrayList<>(sentences.size());
    for (int i = 0; i < sentences.size(); i++) {
      view.add(sentence(i + 1, sentences.get(i)));
    }
    TripleFilter.Result r = filter.apply(chunk.title(), chunk.text(), view);
    rejected.addAll(r.rejected());
    return new Extraction(r.entities(), r.triples(), rejected, 0, 0);
  }

  private StanfordCoreNLP nerPipeline() {
    return load(() -> Pipelines.get(settings.nerProperties()));
  }

  private StanfordCoreNLP parsePipeline() {
    return load(() -> Pipelines.get(settings.parseProperties()));
  }

  private static StanfordCoreNLP load(java.util.function.Supplier<StanfordCoreNLP> loader) {
    try {
      return loader.get();
    } catch (RuntimeException | OutOfMemoryError e) {
      throw new ExtractionException("openie: could not load the Stanford CoreNLP models (they are read from"
          + " stanford-corenlp-4.5.10-models.jar on the classpath and take about 0.7 GB of heap, 3 GB with work in flight): " + e, e);
    }
  }

  /**
   * A document made of {@code kept} (sentences annotated by the NER stage), indexed as if it held only
   * them, for the parse stage; the sentence maps are shared, so its annotations land on them.
   */
  static Annotation subDocument(String text, List<CoreMap> kept) {
    Annotation sub = new Annotation(text);
    List<CoreLabel> tokens = new ArrayList<>();
    for (int i = 0; i < kept.size(); i++) {
      CoreMap s = kept.get(i);
      List<CoreLabel> st = s.get(CoreAnnotations.TokensAnnotation.class);
      s.set(CoreAnnotations.SentenceIndexAnnotation.class, i);
      s.set(CoreAnnotations.TokenBeginAnnotation.class, tokens.size());
      for (CoreLabel t : st) {
        t.setSentIndex(i);
      }
      tokens.addAll(st);
      s.set(CoreAnnotations.TokenEndAnnotation.class, tokens.size());
    }
    sub.set(CoreAnnotations.TokensAnnotation.class, tokens);
    sub.set(CoreAnnotations.SentencesAnnotation.class, kept);
    return sub;
  }

  /** The filter's view of one annotated sentence. */
  static TripleFilter.Sentence sentence(int number, CoreMap s) {
    List<TripleFilter.Token> tokens = new ArrayList<>();
    for (CoreLabel t : s.get(CoreAnnotations.TokensAnnotation.class)) {
      tokens.add(token(t));
    }
    List<TripleFilter.Mention> mentions = new ArrayList<>();
    List<CoreMap> ms = s.get(CoreAnnotations.MentionsAnnotation.class);
    if (ms != null) {
      for (CoreMap m : ms) {
        List<CoreLabel> mt = m.get(CoreAnnotations.TokensAnnotation.class);
        if (mt == null || mt.isEmpty()) {
          continue;
        }
        mentions.add(new TripleFilter.Mention(m.get(CoreAnnotations.TextAnnotation.class),
            m.get(CoreAnnotations.EntityTypeAnnotation.class), mt.get(0).index(), mt.get(mt.size() - 1).index() + 1));
      }
    }
    List<TripleFilter.Candidate> candidates = new ArrayList<>();
    Collection<RelationTriple> triples = s.get(NaturalLogicAnnotations.RelationTriplesAnnotation.class);
    if (triples != null) {
      for (RelationTriple t : triples) {
        candidates.add(new TripleFilter.Candidate(tokens(t.subject), t.relationGloss(), tokens(t.object), t.confidence));
      }
    }
    return new TripleFilter.Sentence(number, s.get(CoreAnnotations.TextAnnotation.class), tokens, mentions, candidates);
  }

  private static List<TripleFilter.Token> tokens(List<CoreLabel> labels) {
    List<TripleFilter.Token> out = new ArrayList<>(labels.size());
    for (CoreLabel l : labels) {
      out.add(token(l));
    }
    return out;
  }

  private static TripleFilter.Token token(CoreLabel l) {
    return new TripleFilter.Token(l.index(), l.word(), l.tag());
  }
}
