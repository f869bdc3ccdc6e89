// Price data sets, which exercises replay (docs/trading.md, "Price data"). An administrator uploads
// the CSV file itself as the request's body, with what the file does not say (a name, the
// instrument, its pip size and the timeframe) in the query; the server reads the file and takes it
// whole or refuses it whole, naming the first bad line.
import * as z from "zod/mini";
import { pageQuerySchema, paginationSchema } from "./admin.ts";
import { endpoint } from "./endpoint.ts";

export const TIMEFRAMES = ["M1", "M5", "M15", "M30", "H1", "H4", "D1", "W1"] as const;
export type Timeframe = (typeof TIMEFRAMES)[number];

/** 20,000 bars of MetaTrader 5's export are about 1.3 MB; this leaves room for long lines. */
export const PRICE_DATA_MAX_BYTES = 4 * 1024 * 1024;

export const PRICE_DATA_MESSAGES = {
  nameRequired: "Give the data set a name, such as EURUSD H1, March 2024.",
  instrumentInvalid: "Write the instrument as 3 to 12 letters or digits, such as EURUSD or XAUUSD.",
  pipSizeInvalid: "Write the pip size as a positive decimal, such as 0.0001 for EURUSD, 0.01 for USDJPY or 0.1 for gold.",
  timeframeInvalid: `Choose a timeframe: ${TIMEFRAMES.join(", ")}.`,
  tooLarge: "The file is larger than 4 MB. Export at most 20,000 bars.",
  notText: "The file is not a text file. Upload the CSV file MetaTrader 5 or TradingView exported.",
  notFound: "That data set does not exist.",
} as const;

export const priceDataSetSchema = z.object({
  id: z.string(),
  name: z.string(),
  instrument: z.string(),
  pipSize: z.string(),
  timeframe: z.enum(TIMEFRAMES),
  source: z.enum(["metatrader5", "tradingview", "generated"]),
  illustrative: z.boolean(),
  barCount: z.number(),
  firstBarAt: z.string(),
  lastBarAt: z.string(),
  createdAt: z.string(),
});
export type PriceDataSet = z.output<typeof priceDataSetSchema>;

export const priceBarSchema = z.object({ time: z.string(), open: z.string(), high: z.string(), low: z.string(), close: z.string() });
export type PriceBar = z.output<typeof priceBarSchema>;

const PIP_SIZE = /^(?=.*[1-9])\d{1,6}(\.\d{1,10})?$/;

/** POST /api/admin/price-data?name=...&instrument=EURUSD&pipSize=0.0001&timeframe=H1, the file as the body. */
export const priceDataUploadQuerySchema = z.object({
  name: z.string(PRICE_DATA_MESSAGES.nameRequired).check(z.trim(), z.minLength(1, PRICE_DATA_MESSAGES.nameRequired), z.maxLength(100, PRICE_DATA_MESSAGES.nameRequired)),
  instrument: z.string(PRICE_DATA_MESSAGES.instrumentInvalid).check(z.trim(), z.toUpperCase(), z.regex(/^[A-Z0-9.]{3,12}$/, PRICE_DATA_MESSAGES.instrumentInvalid)),
  pipSize: z.string(PRICE_DATA_MESSAGES.pipSizeInvalid).check(z.trim(), z.regex(PIP_SIZE, PRICE_DATA_MESSAGES.pipSizeInvalid)),
  timeframe: z.enum(TIMEFRAMES, { error: PRICE_DATA_MESSAGES.timeframeInvalid }),
});

const dataSetParams = z.object({ id: z.string().check(z.maxLength(64)) });

/** A stretch of a set's bars, for the administrator's preview: from a position, at most 500. */
export const priceBarsQuerySchema = z.object({
  from: z._default(z.coerce.number().check(z.int(), z.minimum(0)), 0),
  count: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(500)), 200),
});

export const PRICE_DATA_ENDPOINTS = {
  /** Newest first, a page at a time. */
  list: endpoint({
    method: "GET",
    path: "/api/admin/price-data",
    query: pageQuerySchema,
    response: z.extend(paginationSchema, { dataSets: z.array(priceDataSetSchema) }),
  }),
  /**
   * The file as the request's body (application/octet-stream): registered on its own
   * (price-data.routes.ts), and sent by the browser with apiRequest.
   */
  upload: endpoint({
    method: "POST",
    path: "/api/admin/price-data",
    query: priceDataUploadQuerySchema,
    response: z.object({ dataSet: priceDataSetSchema }),
    status: 201,
  }),
  bars: endpoint({
    method: "GET",
    path: "/api/admin/price-data/:id/bars",
    params: dataSetParams,
    query: priceBarsQuerySchema,
    response: z.object({ dataSet: priceDataSetSchema, bars: z.array(priceBarSchema) }),
  }),
  remove: endpoint({
    method: "DELETE",
    path: "/api/admin/price-data/:id",
    params: dataSetParams,
    response: z.object({ removed: z.literal(true) }),
  }),
} as const;
