// The demo catalogue a fresh installation starts with. Administrators edit or replace it.
import type { StoredExercise } from "../../shared/contracts/exercises.ts";
import type { Track } from "../../shared/plans.ts";
import type { QuizQuestion } from "./schema.ts";

/** The seeded programs are the levels' own: each one's id is its level (docs/data.md, "Content"). */
type SeedProgram = {
  id: Track;
  title: string;
  duration: string;
  priceUsdCents: number | null;
  order: number;
  description: string[];
  /**
   * A lesson's notes come with the HTML learners are sent, as the Programs tab would render it on
   * saving (seed.api.test.ts checks the two agree).
   */
  modules: SeedModule[];
  quiz: { title: string; questions: QuizQuestion[] };
};

/**
 * A lesson to watch (and read), or a chart exercise on the demo's illustrative price data
 * (docs/trading.md, "Exercises"): its start bar and answer are read from that set's shape.
 */
type SeedModule = { title: string; description: string; youtubeId: string | null; notes?: string; notesHtml?: string; exercise?: StoredExercise };

export const SEED_PROGRAMS: SeedProgram[] = [
  {
    id: "beginner",
    title: "Beginner Program",
    duration: "4 weeks",
    priceUsdCents: null,
    order: 1,
    description: [
      "How financial markets work and who trades them",
      "Reading candlestick charts",
      "Support and resistance",
      "Placing your first trade on a demo account",
    ],
    modules: [
      {
        title: "Welcome to the markets",
        description: "What a market is, who takes part, and how a price is made.",
        youtubeId: "bQy71i4MtSQ",
      },
      {
        title: "Reading candlestick charts",
        description: "Open, high, low and close: what each candle tells you about buyers and sellers.",
        youtubeId: "9VN2f8YqR0M",
      },
      {
        title: "Support and resistance",
        description: "Finding the price levels where the market has turned before.",
        youtubeId: "4CQzOXbkLqY",
      },
    ],
    quiz: {
      title: "Beginner Program Quiz",
      questions: [
        {
          question: "What does a candlestick's body show?",
          options: [
            "A) The range between the open and the close",
            "B) The number of trades in the period",
            "C) The broker's commission",
            "D) The average price of the day",
          ],
          answer: "A",
        },
        {
          question: "What is a support level?",
          options: [
            "A) A price the market can never fall below",
            "B) A price area where buying has stopped declines before",
            "C) The highest price of the year",
            "D) A level set by the central bank",
          ],
          answer: "B",
        },
        {
          question: "Where should a beginner place a first trade?",
          options: [
            "A) With borrowed money",
            "B) With all their savings",
            "C) On a demo account",
            "D) On a tip from social media",
          ],
          answer: "C",
        },
      ],
    },
  },
  {
    id: "intermediate",
    title: "Intermediate Program",
    duration: "4 weeks",
    priceUsdCents: 3500,
    order: 2,
    description: [
      "Chart patterns that repeat",
      "Risk management and position sizing",
      "Trading psychology",
      "Market structure: trends, ranges and breakouts",
    ],
    modules: [
      {
        title: "Chart patterns",
        description: "Head and shoulders, double tops and bottoms, triangles and flags.",
        youtubeId: "9VN2f8YqR0M",
      },
      {
        title: "Risk management",
        description: "Stop-losses, position sizing and risking no more than you can afford to lose.",
        youtubeId: "bQy71i4MtSQ",
        notes: "Work out the size of your next trade in the [position size calculator](/tools?calc=position-size): a balance of 1,000 USD, 1% risk and a 20-pip stop on EURUSD is 0.05 lots.",
        notesHtml:
          '<p>Work out the size of your next trade in the <a href="/tools?calc=position-size">position size calculator</a>: a balance of 1,000 USD, 1% risk and a 20-pip stop on EURUSD is 0.05 lots.</p>',
      },
      {
        title: "Market structure",
        description: "Higher highs, lower lows, and telling a trend from a range.",
        youtubeId: "4CQzOXbkLqY",
      },
      {
        title: "Practice: mark the support",
        description: "EURUSD has traded in a range for ten days. Tap the price where buyers have stepped in each time.",
        youtubeId: null,
        exercise: {
          kind: "level",
          // Bar 250 of the illustrative set: the range's third swing down, towards support (illustrative-bars.ts).
          startBar: 250,
          answerLow: "1.0795",
          answerHigh: "1.0810",
          tolerancePips: "10",
          explanation:
            "Support is the zone from 1.0795 to 1.0810: the price turned up from it on each swing down, while sellers held it under 1.0900. A mark within 10 pips of that zone passes.",
          balance: "1000",
          currency: "USD",
          passR: "0",
          maxRiskPercent: "2",
          retryWaitMinutes: 2,
        },
      },
      {
        title: "Practice: trade the breakout",
        description:
          "The range has broken upward through 1.0900. Step through the bars, then place a trade with a stop-loss and a take-profit, risking at most 2% of a practice balance of 1,000 USD.",
        youtubeId: null,
        exercise: {
          kind: "replay",
          // Bar 380 of the illustrative set: the pullback after the breakout, before the trend (illustrative-bars.ts).
          startBar: 380,
          answerLow: "",
          answerHigh: "",
          tolerancePips: "",
          explanation:
            "After a breakout, old resistance often becomes support. A buy near 1.0940 with its stop-loss under 1.0885, below the pullback's low, and its take-profit near 1.0990 let the trend pay for the risk taken. Whatever your result, check that your stop was where the idea was wrong, not where the loss felt small.",
          balance: "1000",
          currency: "USD",
          passR: "0",
          maxRiskPercent: "2",
          retryWaitMinutes: 2,
        },
      },
    ],
    quiz: {
      title: "Intermediate Program Quiz",
      questions: [
        {
          question: "A double top usually signals what?",
          options: [
            "A) A continuation of the uptrend",
            "B) A possible reversal downwards",
            "C) A market holiday",
            "D) Nothing: it is random",
          ],
          answer: "B",
        },
        {
          question: "With a 1,000 USD account and a 1% risk rule, how much may one trade lose?",
          options: ["A) 1 USD", "B) 100 USD", "C) 10 USD", "D) 1,000 USD"],
          answer: "C",
        },
        {
          question: "What marks an uptrend?",
          options: [
            "A) Higher highs and higher lows",
            "B) Lower highs and lower lows",
            "C) Equal highs and equal lows",
            "D) A single large green candle",
          ],
          answer: "A",
        },
      ],
    },
  },
  {
    id: "advanced",
    title: "Advanced Program",
    duration: "4 weeks",
    priceUsdCents: 5000,
    order: 3,
    description: [
      "Professional trading strategies",
      "Algorithmic trading basics",
      "Portfolio management",
      "One-on-one mentorship",
    ],
    modules: [
      {
        title: "Building a trading plan",
        description: "Entries, exits and rules you can test before you risk money.",
        youtubeId: "4CQzOXbkLqY",
        notes: "Before each trade, check what it risks against what it may make in the [risk to reward calculator](/tools?calc=risk-reward), and the margin it ties up in the [margin calculator](/tools?calc=margin).",
        notesHtml:
          '<p>Before each trade, check what it risks against what it may make in the <a href="/tools?calc=risk-reward">risk to reward calculator</a>, and the margin it ties up in the <a href="/tools?calc=margin">margin calculator</a>.</p>',
      },
      {
        title: "Algorithmic trading basics",
        description: "Turning a rule-based strategy into code and backtesting it.",
        youtubeId: "9VN2f8YqR0M",
      },
      {
        title: "Portfolio management",
        description: "Diversification, correlation and managing several positions at once.",
        youtubeId: "bQy71i4MtSQ",
      },
    ],
    quiz: {
      title: "Advanced Program Quiz",
      questions: [
        {
          question: "What is backtesting?",
          options: [
            "A) Trading with a friend",
            "B) Testing a strategy on past market data",
            "C) Reversing a losing trade",
            "D) Checking a broker's licence",
          ],
          answer: "B",
        },
        {
          question: "Why diversify a portfolio?",
          options: [
            "A) To guarantee profits",
            "B) To pay lower fees",
            "C) To reduce the risk of one position dominating the result",
            "D) To trade more often",
          ],
          answer: "C",
        },
        {
          question: "Two strongly correlated positions behave how?",
          options: [
            "A) They tend to move together",
            "B) They always move in opposite directions",
            "C) They cannot both be open at once",
            "D) They cancel each other's risk",
          ],
          answer: "A",
        },
      ],
    },
  },
];
